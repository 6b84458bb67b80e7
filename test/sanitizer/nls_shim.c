/* Preloaded before the AddressSanitizer runtime into a PostgreSQL server that was not built with it: the runtime's
   textdomain/bindtextdomain interceptors hang an uninstrumented program at start-up (glibc's locale lock is left
   corrupted), so these take the calls first and leave messages untranslated. */
char *textdomain(const char *domain) { return (char *) (domain ? domain : "messages"); }
char *bindtextdomain(const char *domain, const char *dir) { (void) domain; return (char *) dir; }
char *bind_textdomain_codeset(const char *domain, const char *codeset) { (void) domain; return (char *) codeset; }
