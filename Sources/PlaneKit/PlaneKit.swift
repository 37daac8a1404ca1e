/// PlaneKit: one import for the whole toolkit, re-exporting each stage of the pipeline.
@_exported import PlaneKitGeometry
@_exported import PlaneKitInput
@_exported import PlaneKitCloudIO
@_exported import PlaneKitSeededRandom
@_exported import PlaneKitSynthesis
@_exported import PlaneKitSyntheticWalks
@_exported import PlaneKitPlanes
@_exported import PlaneKitDetection
@_exported import PlaneKitUnorganizedDetection
@_exported import PlaneKitHitTesting
@_exported import PlaneKitAnchors
@_exported import PlaneKitCameraTracking
@_exported import PlaneKitMaps
@_exported import PlaneKitEvaluation
@_exported import PlaneKitPictures
@_exported import PlaneKitStreamFormat
@_exported import PlaneKitStream
