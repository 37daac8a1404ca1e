// Avahi's client library (DNS-SD over mDNS through the avahi-daemon, reached over D-Bus), with
// its threaded event loop: PlaneKitDiscovery runs the loop on Avahi's own thread.
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <net/if.h>
