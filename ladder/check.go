package ladder

import "strings"

func list(s []string) string { return "[" + strings.Join(s, ", ") + "]" }
