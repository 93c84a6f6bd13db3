package page

import "github.com/chronicle/ladder/ladder/lineage"

// The variant tree, the contests and the beliefs' evidence are read from
// the run's trace (package ladder/lineage: its variant records,
// supersessions and the evidence on belief records), and the golden's
// from the golden trace: nothing is captured from the engine. These are
// lineage's types, under the names the page's templates use.
type (
	Claim        = lineage.Claim
	Variant      = lineage.Variant
	Supersession = lineage.Supersession
)

// readLineage reads a trace artifact's whole lineage; the page's script
// hides what came after the tick it shows.
func readLineage(a Artifact) (*lineage.Lineage, error) {
	rc, err := a.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return lineage.Read(rc, -1)
}
