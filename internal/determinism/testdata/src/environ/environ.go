package environ

import (
	"os"
	"runtime"
)

func env() string {
	return os.Getenv("HOME") // want `os.Getenv reads the process's environment or machine`
}

func cpus() int {
	return runtime.NumCPU() // want `runtime.NumCPU reads`
}

func platform() string {
	return runtime.GOARCH // want `runtime.GOARCH reads`
}

func args() []string {
	return os.Args // want `os.Args reads`
}

func fine() string {
	return os.DevNull // a constant of the package, the same everywhere
}
