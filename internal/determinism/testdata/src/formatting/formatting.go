package formatting

import (
	"errors"
	"fmt"
)

type point struct{ x, y int }

type named int

func (n named) String() string { return "n" }

func addresses(p *int, m map[string]int, s *point, f func(), ch chan int, n *named) {
	_ = fmt.Sprintf("%p", s)                           // want `fmt.Sprintf formats s with %p, a memory address`
	_ = fmt.Sprintf("%d", p)                           // want `fmt.Sprintf formats p, a pointer \(fmt writes its address\)`
	_ = fmt.Sprintf("%v and %v", 1, m)                 // want `fmt.Sprintf formats m, a map`
	_ = fmt.Errorf("%s: %v", "x", f)                   // want `fmt.Errorf formats f, a function`
	fmt.Println(ch)                                    // want `fmt.Println formats ch, a channel`
	_ = fmt.Sprintf("%[2]v %[1]d", 1, m)               // want `fmt.Sprintf formats m, a map`
	_ = fmt.Sprintf("%*d %v", 3, 4, s)                 // a pointer to a struct prints its fields
	_ = fmt.Sprintf("%T %v %v", m, n, errors.New("e")) // %T, a Stringer and an error spell themselves
	_ = fmt.Sprintf("%d%%", 5)
}

func justified(m map[string]int) string {
	return fmt.Sprint(m) //determinism:formatting fmt sorts a map of strings; a debugging aid
}
