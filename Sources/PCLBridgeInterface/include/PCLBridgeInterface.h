// The C interface of the PCL bridge: its data types and the run-time loader of its functions.
#ifndef PLANEKIT_PCLBRIDGEINTERFACE_H
#define PLANEKIT_PCLBRIDGEINTERFACE_H

#include "pk_bridge.h"

#endif
