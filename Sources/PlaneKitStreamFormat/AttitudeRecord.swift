import PlaneKitGeometry

/// `{"type":"attitude","quaternion":[x,y,z,w],"timestamp":S}`: a phone's orientation from its
/// motion sensor, the input of `planekit pointer` ("the phone as a 3D mouse").
///
/// The quaternion rotates device coordinates (+X right, +Y towards the top edge, +Z out of the
/// screen) into the sensor's reference frame (+Z up, against gravity; the heading is arbitrary),
/// as CoreMotion's `CMAttitude.quaternion` with `xArbitraryZVertical` and Android's rotation
/// vector give it. Decoding checks that all four components are finite and that the length is
/// within ``unitTolerance`` of 1, then normalises it; ``AttitudeTimeline`` checks that
/// timestamps increase.
public struct AttitudeRecord: Sendable, Hashable {
    /// How far from unit length a quaternion may be (sensor rounding, six printed digits)
    /// before it is refused as not a rotation.
    public static let unitTolerance: Float = 0.01

    /// The device-to-reference rotation, unit length.
    public var orientation: Quaternion
    /// The sensor's time stamp, in seconds (any origin; increasing within a stream).
    public var timestamp: Double

    /// An attitude; `orientation` is normalised.
    public init(orientation: Quaternion, timestamp: Double) {
        self.orientation = orientation.normalized
        self.timestamp = timestamp
    }

    /// The attitude in `fields`, or the problem with it.
    static func decode(_ fields: HeaderFields) throws(HeaderProblem) -> AttitudeRecord {
        guard let q = try fields.floats("quaternion", count: 4) else {
            throw HeaderProblem("missing \"quaternion\" [x, y, z, w]")
        }
        let length = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).squareRoot()
        guard abs(length - 1) <= unitTolerance else {
            throw HeaderProblem("\"quaternion\" has length \(length), not 1 (a rotation is a unit quaternion [x, y, z, w])")
        }
        let timestamp = try fields.requiredDouble("timestamp")
        return AttitudeRecord(orientation: Quaternion(x: q[0], y: q[1], z: q[2], w: q[3]), timestamp: timestamp)
    }
}

/// Accepts attitude records in order: each must be later than the one before, so a stale or
/// repeated sample (a resent packet, a clock gone back) is refused rather than moving the
/// pointer backwards.
public struct AttitudeTimeline: Sendable {
    /// The last accepted attitude.
    public private(set) var latest: AttitudeRecord?

    /// An empty timeline.
    public init() {}

    /// Takes `record` (record number `number`, for the error) when it is later than the latest.
    ///
    /// - Throws: a ``StreamError`` naming the record and both timestamps otherwise; the
    ///   timeline is unchanged, so the stream goes on.
    public mutating func accept(_ record: AttitudeRecord, number: Int) throws(StreamError) {
        if let latest, !(record.timestamp > latest.timestamp) {
            throw StreamError(
                recordNumber: number,
                message: "attitude timestamp \(record.timestamp) is not after the previous one (\(latest.timestamp)); record skipped")
        }
        latest = record
    }
}
