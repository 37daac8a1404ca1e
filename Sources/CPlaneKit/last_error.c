// The last error message of each thread: a buffer per thread, so that a message read with
// planekit_last_error() stays put while other threads fail.
#include <string.h>

#include "planekit_library.h"

enum { message_capacity = 1024 };
static _Thread_local char last_message[message_capacity];

const char *planekit_last_error(void) { return last_message; }

void planekit_library_set_error(const char *message) {
    size_t length = message ? strlen(message) : 0;
    if (length >= message_capacity) {
        length = message_capacity - 1;
        // Back off to the start of a UTF-8 sequence, so the message stays valid UTF-8.
        while (length > 0 && ((unsigned char)message[length] & 0xC0) == 0x80) length--;
    }
    if (length > 0) memcpy(last_message, message, length);
    last_message[length] = '\0';
}
