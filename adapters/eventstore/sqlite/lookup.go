package sqlitestore

import "fmt"

// streamRevision returns the last revision of stream and whether it has
// events, from the cache or else from the file.
func (w *writer) streamRevision(stream string) (uint64, bool, error) {
	if rev, ok := w.streams[stream]; ok {
		return rev, true, nil
	}
	st := w.st.streamRevision
	st.BindText(stream)
	var rev int64
	found := st.Next()
	if found {
		rev = st.Int(0)
	}
	if err := st.Done(); err != nil {
		return 0, false, fmt.Errorf("read revision of %s: %w", stream, err)
	}
	if !found {
		return 0, false, nil
	}
	w.streams[stream] = uint64(rev)
	return uint64(rev), true, nil
}

// lookUp adds to w.known the ids of requests already in the log; ids known
// already are not looked up again.
func (w *writer) lookUp(requests []*appendRequest) error {
	st := w.st.knownID
	for _, r := range requests {
		for _, e := range r.events {
			if _, ok := w.known[e.id]; ok {
				continue
			}
			bindEventID(st, e.id)
			if st.Next() {
				w.known[e.id] = knownEvent{revision: uint64(st.Int(0)), position: uint64(st.Int(1))}
			}
			if err := st.Done(); err != nil {
				return fmt.Errorf("look up event ids: %w", err)
			}
		}
	}
	return nil
}
