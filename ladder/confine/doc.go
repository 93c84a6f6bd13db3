// Package confine keeps the harness's writes in the places it owns:
// goldens/, the regeneration workspace goldens/.regen, a reports
// directory (reports/ or LADDER_REPORTS) and the output of
// `ladder merge-reports`.
//
// A pull request can commit a symlink, a CI artifact can be crafted and a
// person can mistype a directory, and every ordinary file call follows a
// symlink wherever it leads. So every writer first asks Check whether the
// path it is about to create, replace, rename onto or delete runs through
// a symlink, and refuses — with a *LinkError naming the link and where it
// leads — before it writes anything. The base a path is checked below
// (the repository root, the directory holding a reports directory) is
// the caller's and is not itself checked: /tmp is a symlink on some
// systems, and a checkout may live behind one.
//
// Tree does the same for a directory the harness reads in order to copy
// it somewhere it then owns (a shard's reports, which merge-reports
// copies into the merged report): a symlink inside would be copied as a
// link and read through later.
//
// Example: a golden set committed as a symlink to a directory outside the
// repository
//
//	goldens/T0.1-witness -> /home/someone/notes
//
// makes Check(".", "goldens/T0.1-witness/dense.csv") fail with
//
//	goldens/T0.1-witness is a symlink (to /home/someone/notes): refused …
package confine
