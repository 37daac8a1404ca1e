// The PCL bridge has no headers of its own to import: its C interface (types and the function
// table it exports as `pk_bridge_functions_v1`) is PCLBridgeInterface's pk_bridge.h, and it is
// reached at run time through that target's loader, never linked directly.
#ifndef PLANEKIT_PCLBRIDGE_H
#define PLANEKIT_PCLBRIDGE_H

#include "pk_bridge.h"

#endif
