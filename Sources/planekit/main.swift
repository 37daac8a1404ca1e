import PlaneKit
import PCLBridge
print("planekit, PCL", String(cString: pk_pcl_version()))
