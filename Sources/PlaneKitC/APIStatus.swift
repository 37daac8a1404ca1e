import CPlaneKit
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitStreamFormat

/// A call refused before any work: its status and the message for `planekit_last_error()`.
struct APIFailure: Error {
    let status: planekit_status
    let message: String

    /// A null pointer, a bad size or number.
    static func invalid(_ message: String) -> APIFailure { APIFailure(status: Status.invalidArgument, message: message) }
}

/// The header's status codes, typed for Swift (C's anonymous enum imports as `Int`).
enum Status {
    static let ok = planekit_status(PLANEKIT_OK)
    static let invalidArgument = planekit_status(PLANEKIT_INVALID_ARGUMENT)
    static let inputError = planekit_status(PLANEKIT_INPUT_ERROR)
    static let detectionError = planekit_status(PLANEKIT_DETECTION_ERROR)
    static let sessionError = planekit_status(PLANEKIT_SESSION_ERROR)
    static let outOfRange = planekit_status(PLANEKIT_OUT_OF_RANGE)
}

/// Runs one API call's body: success is `PLANEKIT_OK`; a thrown error becomes its status, and its
/// description the calling thread's last error. Nothing escapes as a Swift error or a trap that
/// the body's own checks can prevent.
func reportingStatus(_ body: () throws -> Void) -> planekit_status {
    do {
        try body()
        return Status.ok
    } catch {
        let (status, message) = statusAndMessage(of: error)
        planekit_library_set_error(message)
        return status
    }
}

private func statusAndMessage(of error: any Error) -> (planekit_status, String) {
    switch error {
    case let failure as APIFailure: (failure.status, failure.message)
    case let error as InputError: (Status.inputError, error.description)
    case let error as DetectionError: (Status.detectionError, error.description)
    case let error as SessionError: (Status.sessionError, error.description)
    case let error as StreamError: (Status.sessionError, error.description)
    default: (Status.sessionError, "\(error)")
    }
}

/// `pointer`, or an invalid-argument failure naming `name`.
func required<T>(_ pointer: T?, _ name: String) throws(APIFailure) -> T {
    guard let pointer else { throw .invalid("\(name) is NULL") }
    return pointer
}

/// A C string argument as Swift text, refusing NULL and invalid UTF-8.
func text(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(APIFailure) -> String {
    guard let string = String(validatingCString: try required(pointer, name)) else {
        throw .invalid("\(name) is not valid UTF-8")
    }
    return string
}

/// The point count of a `width × height` image or grid: both positive and their product within
/// the detector's limit (so no later size computation can overflow).
func gridCount(width: Int64, height: Int64) throws(APIFailure) -> Int {
    guard width > 0, height > 0 else { throw .invalid("width and height must be positive, got \(width)×\(height)") }
    let (count, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, count <= Int64(OrganizedPlaneDetector.maximumPointCount) else {
        throw .invalid("\(width)×\(height) is more than the \(OrganizedPlaneDetector.maximumPointCount) points one call takes")
    }
    return Int(count)
}

/// Intrinsics for a `width × height` image: finite, with positive focal lengths.
func intrinsics(_ given: planekit_intrinsics, width: Int, height: Int) throws(APIFailure) -> PinholeIntrinsics {
    guard let intrinsics = PinholeIntrinsics(fx: given.fx, fy: given.fy, cx: given.cx, cy: given.cy, width: width, height: height) else {
        throw .invalid("intrinsics need finite numbers and positive focal lengths, got fx \(given.fx), fy \(given.fy), cx \(given.cx), cy \(given.cy)")
    }
    return intrinsics
}

/// A maximum depth argument: 0 for none, else positive and finite.
func maximumDepth(_ value: Float) throws(APIFailure) -> Float? {
    if value == 0 { return nil }
    guard DepthReadingRules.isValid(maxDepth: value) else {
        throw .invalid("max_depth must be 0 (no limit) or a positive finite number of metres, got \(value)")
    }
    return value
}

/// A direction argument: `nil` when all three are 0 (the default), else finite and not zero.
func direction(_ v: SIMD3<Float>, _ name: String) throws(APIFailure) -> SIMD3<Float>? {
    if v == .zero { return nil }
    guard v.x.isFinite, v.y.isFinite, v.z.isFinite else { throw .invalid("\(name) must be finite, got \(v)") }
    return v
}

/// A `planekit_sensor` value as a profile.
func sensorProfile(_ value: Int32) throws(APIFailure) -> SensorProfile {
    switch value {
    case Int32(PLANEKIT_SENSOR_AUTO.rawValue): .auto
    case Int32(PLANEKIT_SENSOR_KINECT.rawValue): .kinect
    case Int32(PLANEKIT_SENSOR_REALSENSE.rawValue): .realsense
    case Int32(PLANEKIT_SENSOR_TOF.rawValue): .tof
    case Int32(PLANEKIT_SENSOR_SCANNER.rawValue): .scanner
    default: throw .invalid("sensor \(value) is not a planekit_sensor (0 auto … 4 scanner)")
    }
}

/// A C array of `count` floats (a tuple in Swift's import) filled from `values`.
func fill<Tuple>(_ tuple: inout Tuple, with values: some Collection<Float>) {
    withUnsafeMutableBytes(of: &tuple) { bytes in
        let floats = bytes.bindMemory(to: Float.self)
        precondition(floats.count == values.count, "C array and values differ in length")
        _ = floats.initialize(from: values)
    }
}

/// The three floats of a C `float[3]`.
func vector(_ tuple: (Float, Float, Float)) -> SIMD3<Float> { SIMD3(tuple.0, tuple.1, tuple.2) }

/// Stores `box` behind an opaque handle for C: retained until `release(_:as:)`.
func handle(_ box: AnyObject) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(box).toOpaque())
}

/// The object behind a handle made by ``handle(_:)``, or a failure for NULL.
func object<Box: AnyObject>(_ pointer: OpaquePointer?, as type: Box.Type, _ name: String) throws(APIFailure) -> Box {
    Unmanaged<Box>.fromOpaque(UnsafeRawPointer(try required(pointer, name))).takeUnretainedValue()
}

/// Frees a handle made by ``handle(_:)``; NULL is ignored.
func release<Box: AnyObject>(_ pointer: OpaquePointer?, as type: Box.Type) {
    guard let pointer else { return }
    Unmanaged<Box>.fromOpaque(UnsafeRawPointer(pointer)).release()
}
