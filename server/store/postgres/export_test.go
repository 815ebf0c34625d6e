package postgres

import "context"

// SessionSetting returns the value of the run-time parameter name on one of the pool's connections, so
// tests can check what the store tells the server.
func (s *Store) SessionSetting(ctx context.Context, name string) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&v)
	return v, err
}
