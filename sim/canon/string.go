package canon

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string: '"' and '\' and the control
// characters \n \r \t \b \f get two-character escapes, other control
// characters get \u00xx, and everything else is copied as raw UTF-8.
func appendString(dst []byte, s string) ([]byte, *pathError) {
	dst = append(dst, '"')
	done := 0 // s[:done] has been written
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return dst, failure(ErrInvalidUTF8)
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[done:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		done = i
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"'), nil
}
