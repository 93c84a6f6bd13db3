package concurrency

import "sync" // want `imports sync`

var mu sync.Mutex

func spawn(f func()) {
	go f() // want `a go statement starts a goroutine`
}

func pipe(ch chan int) int { // want `a channel type`
	ch <- 1             // want `a channel send`
	for v := range ch { // want `a range over a channel`
		return v
	}
	select { // want `a select lets the scheduler choose`
	default:
	}
	return <-ch // want `a channel receive`
}
