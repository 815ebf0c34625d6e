package auth

// SetEqual replaces the secret comparison, so a test can observe that every comparison goes through
// it (it is crypto/subtle's constant-time compare by default).
func (a *Authenticator) SetEqual(equal func(a, b []byte) bool) { a.equal = equal }

// SetCompare replaces the bcrypt comparison, so a test can hold comparisons in progress and count how
// many run at once.
func (a *Authenticator) SetCompare(compare func(hash, password []byte) error) { a.compare = compare }
