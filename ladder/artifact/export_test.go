package artifact

// LinkName is the name a twin's Commit links its golden to before renaming
// it into place, for the spec of a link that cannot be made.
func LinkName(f *File) string { return f.linkName() }
