// Intentionally empty: PCL's C++ headers are included by PCLBridge's .cpp files only.
