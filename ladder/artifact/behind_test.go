package artifact_test

import (
	"bytes"
	"errors"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/chronicle/ladder/ladder/artifact"
)

// pieces records each Write it is given.
type pieces struct {
	bytes.Buffer
	sizes []int
}

func (p *pieces) Write(b []byte) (int, error) {
	p.sizes = append(p.sizes, len(b))
	return p.Buffer.Write(b)
}

// failing accepts ok writes, then fails every one after.
type failing struct {
	ok, seen int
}

var errFull = errors.New("disk full")

func (f *failing) Write(b []byte) (int, error) {
	if f.seen++; f.seen > f.ok {
		return 0, errFull
	}
	return len(b), nil
}

var _ = Describe("Behind", func() {
	It("writes every byte in order, in pieces of at most 64 KiB, though the caller reuses its buffer", func() {
		rng := rand.New(rand.NewPCG(3, 4))
		var want bytes.Buffer
		behind := &pieces{}
		b := artifact.NewBehind(behind)
		buf := make([]byte, 0, 300<<10)
		for range 400 {
			buf = buf[:rng.IntN(cap(buf))] // mostly larger than a chunk, some far larger
			for i := range buf {
				buf[i] = byte(rng.Uint32())
			}
			want.Write(buf)
			n, err := b.Write(buf)
			Expect(err).NotTo(HaveOccurred())
			Expect(n).To(Equal(len(buf)))
		}
		Expect(b.Close()).To(Succeed())
		Expect(behind.Bytes()).To(Equal(want.Bytes()))
		Expect(len(behind.sizes)).To(BeNumerically(">", 4), "more chunks than are in flight")
		for _, n := range behind.sizes {
			Expect(n).To(BeNumerically("<=", 64<<10))
		}
	})

	It("returns the writer's first error, late from Write and for certain from Close, and writes nothing after it", func() {
		f := &failing{ok: 2}
		b := artifact.NewBehind(f)
		chunk := make([]byte, 64<<10)
		var late error
		for range 20 {
			if _, err := b.Write(chunk); err != nil {
				late = err
				break
			}
		}
		Expect(b.Close()).To(MatchError(errFull))
		Expect(b.Close()).To(MatchError(errFull), "the same error again")
		Expect(late).To(Or(BeNil(), MatchError(errFull)))
		Expect(f.seen).To(Equal(3), "two written, the third refused, none tried after")
		_, err := b.Write(chunk)
		Expect(err).To(MatchError(artifact.ErrBehindClosed))
	})

	It("keeps a panic in the writer as its error and never leaves Write waiting", func() {
		b := artifact.NewBehind(panicking{})
		for range 20 {
			b.Write(make([]byte, 64<<10))
		}
		Expect(b.Close()).To(MatchError(ContainSubstring("artifact: the writer behind panicked: the writer's own bug")))
	})

	It("writes what is left at Close, and nothing for nothing", func() {
		behind := &pieces{}
		b := artifact.NewBehind(behind)
		Expect(b.Write([]byte("tick\n"))).To(Equal(5))
		Expect(behind.sizes).To(BeEmpty(), "a part-filled chunk waits")
		Expect(b.Close()).To(Succeed())
		Expect(behind.String()).To(Equal("tick\n"))
		empty := &pieces{}
		Expect(artifact.NewBehind(empty).Close()).To(Succeed())
		Expect(empty.sizes).To(BeEmpty())
		var none *artifact.Behind
		Expect(none.Close()).To(Succeed())
	})
})

type panicking struct{}

func (panicking) Write([]byte) (int, error) { panic("the writer's own bug") }
