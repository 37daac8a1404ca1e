// PCLBridge: the only place PlaneKit touches the Point Cloud Library.
//
// A plain C interface over C++ code, so Swift imports it without C++ interoperability.
// Every function catches every C++ exception and reports it through a `pk_status`; none
// aborts the process.
#ifndef PLANEKIT_PCLBRIDGE_H
#define PLANEKIT_PCLBRIDGE_H

#include "pk_common.h"
#include "pk_segmentation.h"

#endif
