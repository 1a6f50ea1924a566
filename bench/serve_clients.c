/* The clients of the room server benchmark (bench_serve.py), in C: many
   seats' connections in one process, so that the clients take little of the
   machine the server is measured on.

   bench_serve.py opens the connections, says hello, makes the tables and
   seats the players, then starts this program with the sockets inherited
   and one line a connection on stdin:

       FD INDEX TABLE SEAT RANDOM COUNTS

   (INDEX: the table's number in the benchmark, whatever server it is on;
   RANDOM 1: a random player, 0: call-only; COUNTS 1: the connection whose
   hand_ended lines count the table's hands).  The first line of stdin is
   "SECONDS SEED".  For SECONDS it answers every turn: call-only players
   check when the menu allows it, else call (the turn read as text); random
   players read the menu's fields and pick as bench_serve.pick does.  A
   player left with no chips adds 200.  Then it prints, one a line:
   "hands N", "errors N", "leaks N", "first_error TEXT" (when any), and
   "latency SECONDS" for each time from an action sent to the table's next
   turn.

   It reads lines as text: the fields it needs are found by their keys.

   With --websocket (bench_web.py) each connection is a WebSocket, its
   handshake made: a message is a text frame each way (the server's
   unmasked, this program's masked), a ping is answered with a pong.  Each
   "latency" line then also gives the connections (their lines on stdin,
   from 0) that sent the action and that was told the turn.  At the end each
   connection is read up to the end of a message (its socket left at a
   message's boundary, for the caller to read on), nothing more answered. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MOST 4096
#define BUFFER (1 << 18)

typedef struct {
    int fd, seat, random, counts, table, number;
    char name[32];
    char *in;
    size_t have;
} Client;

static Client clients[MOST];
static double acted[MOST]; /* by table: when its last action was sent (0: none) */
static int acted_by[MOST]; /* by table: the connection that sent it */
static double *latencies;
static int (*paths)[2]; /* each latency's connections: the action's, the turn's */
static size_t latency_count, latency_room;
static int websocket, stopping;
static long hands, errors, leaks;
static char first_error[256];
static unsigned long long rng_state;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double uniform(void) { /* xorshift64*, in [0, 1) */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static void send_all(Client *c, const char *data, size_t length) {
    size_t sent = 0;
    while (sent < length) {
        ssize_t n = send(c->fd, data + sent, length - sent, 0);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            perror("send");
            exit(1);
        }
        sent += (size_t)n;
    }
}

/* A WebSocket frame of ours (`opcode`: 1 text, 10 pong): masked, as a
   client's must be (a fixed mask: nothing here to hide from a proxy). */
static void send_frame(Client *c, int opcode, const char *payload, size_t length) {
    static const unsigned char mask[4] = {0x5a, 0xc3, 0x17, 0x8e};
    unsigned char frame[16 + 256];
    size_t head = 2;
    if (length > 256) {
        fprintf(stderr, "a message of ours too long for a frame\n");
        exit(1);
    }
    frame[0] = (unsigned char)(0x80 | opcode);
    if (length < 126) {
        frame[1] = (unsigned char)(0x80 | length);
    } else {
        frame[1] = 0x80 | 126;
        frame[2] = (unsigned char)(length >> 8), frame[3] = (unsigned char)length;
        head = 4;
    }
    memcpy(frame + head, mask, 4);
    head += 4;
    for (size_t i = 0; i < length; i++) frame[head + i] = (unsigned char)payload[i] ^ mask[i % 4];
    send_all(c, (const char *)frame, head + length);
}

/* One message (`text`: a line, its newline included). */
static void send_line(Client *c, const char *text, int length) {
    if (websocket)
        send_frame(c, 1, text, (size_t)length - 1);
    else
        send_all(c, text, (size_t)length);
}

/* The value after "key": in the text from `from`: its start, or NULL. */
static const char *after(const char *from, const char *key) {
    const char *at = strstr(from, key);
    return at ? at + strlen(key) : NULL;
}

/* A number field (-1: null or missing). */
static long number(const char *from, const char *key) {
    const char *at = after(from, key);
    if (at == NULL || *at == 'n') return -1;
    return strtol(at, NULL, 10);
}

static int boolean(const char *from, const char *key) {
    const char *at = after(from, key);
    return at != NULL && *at == 't';
}

static void act(Client *c, const char *kind, long to) {
    char out[160];
    int length = to >= 0
        ? snprintf(out, sizeof out, "{\"type\":\"act\",\"table\":\"%s\",\"action\":{\"kind\":\"%s\",\"to\":%ld}}\n",
                   c->name, kind, to)
        : snprintf(out, sizeof out, "{\"type\":\"act\",\"table\":\"%s\",\"action\":{\"kind\":\"%s\"}}\n",
                   c->name, kind);
    send_line(c, out, length);
    acted[c->table] = now();
    acted_by[c->table] = c->number;
}

static void random_move(Client *c, const char *legal) {
    const char *options[3];
    int count = 0;
    int check = boolean(legal, "\"check\":");
    long call = number(legal, "\"call\":");
    if (check) options[count++] = "check";
    if (call >= 0) options[count++] = "call";
    if (boolean(legal, "\"fold\":") && !check) options[count++] = "fold";
    const char *wager = after(legal, "\"wager\":");
    if (wager != NULL && *wager == '"' && uniform() < 0.3) {
        long low = number(legal, "\"min_to\":"), high = number(legal, "\"max_to\":");
        long to = low + (long)(uniform() * (double)(high - low + 1));
        act(c, strncmp(wager, "\"bet\"", 5) == 0 ? "bet" : "raise", to);
        return;
    }
    if (number(legal, "\"all_in\":") >= 0 && uniform() < 0.05) {
        act(c, "all_in", -1);
        return;
    }
    act(c, count ? options[(int)(uniform() * count)] : "fold", -1);
}

/* The value after the last "key": in the text (the event's own field, after
   those of the objects it holds), or NULL. */
static const char *after_last(const char *from, const char *key) {
    const char *found = NULL, *at;
    while ((at = strstr(from, key)) != NULL) found = at, from = at + 1;
    return found ? found + strlen(key) : NULL;
}

/* The stack of `seat` in a hand_ended line (-1: not dealt in). */
static long stack_of(const char *line, int seat) {
    const char *seats = after_last(line, "\"seats\":[");
    const char *stacks = after_last(line, "\"stacks\":[");
    if (seats == NULL || stacks == NULL) return -1;
    while (*seats && *seats != ']') {
        char *end;
        long s = strtol(seats, &end, 10);
        long chips = strtol(stacks, (char **)&stacks, 10);
        if (s == seat) return chips;
        seats = *end == ',' ? end + 1 : end;
        if (*stacks == ',') stacks++;
    }
    return -1;
}

static void read_line(Client *c, const char *line) {
    if (stopping) return;
    if (strncmp(line, "{\"event\":\"turn\"", 15) == 0) {
        if (number(line, "\"seat\":") != c->seat) { /* (another seat's view: its cards) */
            leaks++;
            return;
        }
        double sent = acted[c->table];
        if (sent > 0) {
            if (latency_count == latency_room) {
                latency_room = latency_room ? 2 * latency_room : 1 << 16;
                latencies = realloc(latencies, latency_room * sizeof *latencies);
                paths = realloc(paths, latency_room * sizeof *paths);
            }
            paths[latency_count][0] = acted_by[c->table], paths[latency_count][1] = c->number;
            latencies[latency_count++] = now() - sent;
            acted[c->table] = 0;
        }
        const char *legal = strstr(line, "\"legal\":{");
        if (legal == NULL) return;
        if (c->random)
            random_move(c, legal);
        else
            act(c, boolean(legal, "\"check\":") ? "check" : "call", -1);
    } else if (strncmp(line, "{\"event\":\"hole_cards\"", 21) == 0) {
        if (number(line, "\"seat\":") != c->seat) leaks++;
    } else if (strncmp(line, "{\"event\":\"hand_ended\"", 21) == 0) {
        if (c->counts) hands++;
        if (stack_of(line, c->seat) == 0) {
            char out[96];
            int length = snprintf(out, sizeof out,
                                  "{\"type\":\"add_chips\",\"table\":\"%s\",\"chips\":200}\n", c->name);
            send_line(c, out, length);
        }
    } else if (strncmp(line, "{\"id\":", 6) == 0 && strstr(line, "\"error\":") != NULL) {
        if (!errors++) snprintf(first_error, sizeof first_error, "%.200s", line);
        acted[c->table] = 0; /* (a refused action: no turn follows it) */
    }
}

/* Serves the whole lines in the client's buffer: the bytes they took. */
static size_t lines(Client *c) {
    char *start = c->in, *end;
    while ((end = memchr(start, '\n', c->have - (size_t)(start - c->in))) != NULL) {
        *end = 0;
        read_line(c, start);
        start = end + 1;
    }
    return (size_t)(start - c->in);
}

/* Serves the whole WebSocket frames in the client's buffer: the bytes they took. */
static size_t frames(Client *c) {
    unsigned char *in = (unsigned char *)c->in;
    size_t at = 0;
    for (;;) {
        unsigned char *f = in + at;
        size_t left = c->have - at, head = 2, length;
        if (left < 2) break;
        if ((f[0] & 0x80) == 0 || (f[1] & 0x80) != 0) {
            fprintf(stderr, "a frame of the server's in pieces or masked\n");
            exit(1);
        }
        length = f[1] & 0x7f;
        if (length == 126) {
            if (left < 4) break;
            length = (size_t)f[2] << 8 | f[3], head = 4;
        } else if (length == 127) {
            if (left < 10) break;
            length = 0, head = 10;
            for (int i = 2; i < 10; i++) length = length << 8 | f[i];
        }
        if (left < head + length) break;
        char *payload = (char *)f + head;
        char kept = payload[length]; /* (the text ended for the search: put back after) */
        payload[length] = 0;
        int opcode = f[0] & 0x0f;
        if (opcode == 1) {
            read_line(c, payload);
        } else if (opcode == 9) {
            send_frame(c, 10, payload, length);
        } else if (opcode == 8) {
            fprintf(stderr, "the server closed a WebSocket\n");
            exit(1);
        }
        payload[length] = kept;
        at += head + length;
    }
    return at;
}

static void readable(Client *c) {
    for (;;) {
        size_t room = BUFFER - 1 - c->have;
        ssize_t got = recv(c->fd, c->in + c->have, room, 0);
        if (got == 0) {
            fprintf(stderr, "the server closed a connection\n");
            exit(1);
        }
        if (got < 0) {
            if (errno == EAGAIN || errno == EINTR) return;
            perror("recv");
            exit(1);
        }
        c->have += (size_t)got;
        c->in[c->have] = 0;
        size_t used = websocket ? frames(c) : lines(c);
        c->have -= used;
        memmove(c->in, c->in + used, c->have);
        if (c->have >= BUFFER - 1) {
            fprintf(stderr, "a message longer than the buffer\n");
            exit(1);
        }
        /* (less than asked: nothing more is there now, and the poll, level
           triggered, says when more comes: no recv that finds nothing) */
        if ((size_t)got < room) return;
    }
}

/* Reads the connection up to the end of a message (nothing answered), so
   that whoever reads it next begins with a whole one. */
static void finish(Client *c) {
    double deadline = now() + 10;
    while (c->have > 0 && now() < deadline) {
        struct pollfd one = {.fd = c->fd, .events = POLLIN};
        if (poll(&one, 1, 100) > 0) readable(c);
    }
    if (c->have > 0) {
        fprintf(stderr, "a connection stopped within a message\n");
        exit(1);
    }
}

int main(int argc, char **argv) {
    websocket = argc > 1 && strcmp(argv[1], "--websocket") == 0;
    double seconds;
    unsigned long long seed;
    if (scanf("%lf %llu", &seconds, &seed) != 2) return 2;
    rng_state = seed * 2654435761ULL + 88172645463325252ULL;
    int count = 0;
    char table_id[32];
    int fd, index, seat, random, counts;
    while (count < MOST &&
           scanf("%d %d %31s %d %d %d", &fd, &index, table_id, &seat, &random, &counts) == 6) {
        Client *c = &clients[count++];
        c->fd = fd, c->seat = seat, c->random = random, c->counts = counts;
        snprintf(c->name, sizeof c->name, "%s", table_id);
        c->table = index % MOST;
        c->number = count - 1;
        c->in = malloc(BUFFER);
        c->have = 0;
    }
    int poll = epoll_create1(0);
    for (int i = 0; i < count; i++) {
        struct epoll_event e = {.events = EPOLLIN, .data.ptr = &clients[i]};
        if (epoll_ctl(poll, EPOLL_CTL_ADD, clients[i].fd, &e) != 0) {
            perror("epoll_ctl");
            return 1;
        }
    }
    double end = now() + seconds;
    struct epoll_event ready[256];
    while (now() < end) {
        int n = epoll_wait(poll, ready, 256, 500);
        for (int i = 0; i < n; i++) readable((Client *)ready[i].data.ptr);
    }
    stopping = 1;
    for (int i = 0; i < count; i++) finish(&clients[i]);
    printf("hands %ld\nerrors %ld\nleaks %ld\n", hands, errors, leaks);
    if (errors) printf("first_error %s\n", first_error);
    for (size_t i = 0; i < latency_count; i++)
        printf("latency %.6f %d %d\n", latencies[i], paths[i][0], paths[i][1]);
    return 0;
}
