/* quote.c — bytes taken from an input file or the command line, made safe
 * for a message: quoted, with control bytes (below 0x20, and 0x7f) and the
 * backslash written as \xHH / \\, so a hostile file cannot move the cursor,
 * clear the screen or set the terminal's title through sylva's messages. */
#include <stdio.h>

#include "cli.h"

void cli_quote(char *buf, size_t cap, const char *s, size_t len, int cut)
{
    size_t k = 0;
    if (cap < 8) {
        if (cap) buf[0] = '\0';
        return;
    }
    buf[k++] = '\'';
    for (size_t i = 0; i < len && k + 8 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) k += (size_t)snprintf(buf + k, cap - k, "\\x%02x", c);
        else if (c == '\\') k += (size_t)snprintf(buf + k, cap - k, "\\\\");
        else buf[k++] = (char)c;
        if (i + 1 < len && k + 8 >= cap) cut = 1;
    }
    if (cut) k += (size_t)snprintf(buf + k, cap - k, "...");
    buf[k++] = '\'';
    buf[k] = '\0';
}
