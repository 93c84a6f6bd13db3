package canon

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s as a canonical JSON string and returns the
// extended buffer. Invalid UTF-8 is ErrInvalidUTF8, with dst returned at
// its original length. Encoders that write JSON by hand (the trace's
// record encoder) use it so that their strings are spelled exactly as
// Marshal spells them.
func AppendString(dst []byte, s string) ([]byte, error) {
	out, perr := appendString(dst, s)
	if perr != nil {
		return dst, perr.err
	}
	return out, nil
}

// Plain reports whether b is written as it is between the quotes of a
// JSON string: ASCII from space to DEL without '"' or '\'. An encoder
// that formats text straight into its output can check it there and
// escape only when it must.
func Plain(b []byte) bool { return plainPrefix(b) == len(b) }

// AppendStringBytes is AppendString for text held in a byte slice, such as
// a key an encoder has just formatted into scratch space. It allocates
// only when b needs escaping.
func AppendStringBytes(dst []byte, b []byte) ([]byte, error) {
	if Plain(b) {
		dst = append(dst, '"')
		dst = append(dst, b...)
		return append(dst, '"'), nil
	}
	return AppendString(dst, string(b))
}

// appendString appends s as a JSON string: '"' and '\' and the control
// characters \n \r \t \b \f get two-character escapes, other control
// characters get \u00xx, and everything else is copied as raw UTF-8.
func appendString(dst []byte, s string) ([]byte, *pathError) {
	dst = append(dst, '"')
	i := plainPrefix(s)
	if i == len(s) {
		dst = append(dst, s...)
		return append(dst, '"'), nil
	}
	done := 0 // s[:done] has been written
	for i < len(s) {
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

// plainPrefix returns the length of the longest prefix of s that is
// ASCII from space to DEL other than '"' and '\': bytes that are copied
// as they are. It looks at eight bytes at a time, because ids — nearly
// every string the trace writes — are plain throughout.
func plainPrefix[T string | []byte](s T) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8]
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		if !plain8(w) {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			break
		}
	}
	return i
}

// plain8 reports whether the eight bytes of w are all plain. Each term
// has a byte's high bit set when, respectively, some byte is below 0x20,
// is '"', is '\', or is not ASCII. The first three are the classic "has a
// byte less than n" and "has a zero byte" tests; they never miss a byte,
// which is all that matters here, since any hit is handled one byte at a
// time.
func plain8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	special := (w - ones*0x20) | (quote - ones) | (backslash - ones)
	return (special&^w|w)&highs == 0
}
