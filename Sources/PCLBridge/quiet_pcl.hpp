// PCL's console output, turned off for every bridge entry point.
#pragma once

#include <pcl/console/print.h>

namespace planekit_bridge {

/// Silences PCL's console messages. PCL reports rejected RANSAC samples, unreadable PCD headers and
/// similar events on stderr, sometimes thousands of lines a call; failures that matter reach the
/// caller through `pk_status` instead, and the caller names the file or record in its own one-line
/// error. (PCL's verbosity is process-wide, and the bridge is PCL's only user.)
inline void quiet_pcl() {
    pcl::console::setVerbosityLevel(pcl::console::L_ALWAYS);
}

}  // namespace planekit_bridge
