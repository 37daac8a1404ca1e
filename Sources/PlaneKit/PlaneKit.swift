/// PlaneKit: one import for the whole toolkit, re-exporting each stage of the pipeline.
@_exported import PlaneKitGeometry
@_exported import PlaneKitInput
@_exported import PlaneKitSynthesis
@_exported import PlaneKitDetection
@_exported import PlaneKitHitTesting
@_exported import PlaneKitTracking
@_exported import PlaneKitStream
