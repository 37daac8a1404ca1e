#include "pk_common.h"

#include <pcl/pcl_config.h>

extern "C" const char *pk_pcl_version(void) {
    return PCL_VERSION_PRETTY;
}
