/* A call-only player for the protocol benchmark (bench_protocol.py), in C:
   for each "turn" line on stdin it answers check when its menu allows one,
   else call, echoing the turn's id. It reads the line as text, the way the
   shell example does (examples/caller_bot.sh): a call-only player needs no
   more of the view. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buffer[1 << 20];

static void answer(const char *line) {
    if (strstr(line, "\"event\":\"turn\"") == NULL) return;
    const char *id = strstr(line, "\"id\":");
    const char *kind = strstr(line, "\"check\":true") ? "check" : "call";
    char out[96];
    int length = snprintf(out, sizeof out, "{\"id\":%ld,\"action\":{\"kind\":\"%s\"}}\n",
                          id ? strtol(id + 5, NULL, 10) : 0L, kind);
    if (write(1, out, (size_t)length) != length) exit(1);
}

int main(void) {
    size_t have = 0;
    for (;;) {
        ssize_t got = read(0, buffer + have, sizeof buffer - 1 - have);
        if (got <= 0) return 0;
        have += (size_t)got;
        char *start = buffer, *end;
        while ((end = memchr(start, '\n', have - (size_t)(start - buffer))) != NULL) {
            *end = '\0';
            answer(start);
            start = end + 1;
        }
        have -= (size_t)(start - buffer);
        if (have == sizeof buffer - 1) have = 0; /* a line too long: dropped */
        memmove(buffer, start, have);
    }
}
