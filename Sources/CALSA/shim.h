#include <alsa/asoundlib.h>

// ALSA prints its own diagnostics to stderr; apipe reports errors itself, in one line.
static void apipe_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void apipe_alsa_quiet(void) {
    snd_lib_error_set_handler(apipe_alsa_silent);
}
