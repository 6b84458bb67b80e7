// Included at the top of every core header, and deliberately without an include guard so the check runs at each
// inclusion. PostgreSQL's headers define macros (printf, snprintf, gettext, Min, ...) that change what standard
// library headers mean when they come later, so a translation unit must include core headers before any of
// PostgreSQL's: this stops the build where that order is broken.
#if defined(C_H) || defined(POSTGRES_H)
#error "a core header is included after a PostgreSQL header: include core headers (and the standard library) first"
#endif
