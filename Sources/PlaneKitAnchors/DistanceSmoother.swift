import PlaneKitGeometry

/// Smooths where a dragged object sits along the camera's ray: it keeps the
/// ``capacity`` (10) most recent hit distances from the camera, and an object goes to
/// camera position + unit(direction to the hit) × the mean of those distances.
///
/// The eleventh sample drops the first: the window slides, it never grows past ten. Hit noise
/// along the ray (the depth of a far plane jumps by centimetres between frames) is averaged
/// out, while the object still follows the direction of the finger exactly.
public struct DistanceSmoother: Sendable, Hashable, Codable {
    /// How many recent distances are kept: 10.
    public static let capacity = 10

    /// The kept distances, oldest first (at most ``capacity``).
    public private(set) var samples: [Float] = []

    /// No samples yet.
    public init() {}

    /// Adds a hit distance, dropping the oldest when ten are already kept. Non-finite or
    /// negative distances are ignored: they are not a place an object can be.
    public mutating func add(_ distance: Float) {
        guard distance.isFinite, distance >= 0 else { return }
        if samples.count == DistanceSmoother.capacity { samples.removeFirst() }
        samples.append(distance)
    }

    /// The mean of the kept distances, or `nil` before the first sample. Summed in `Double` so
    /// that the mean of equal samples is that sample exactly.
    public var mean: Float? {
        guard !samples.isEmpty else { return nil }
        return Float(samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count))
    }

    /// Adds the distance from `camera` to `hit` and returns the smoothed position:
    /// `camera + unit(hit − camera) × mean`. Returns `hit` itself when the two coincide (no
    /// direction to smooth along).
    public mutating func smoothedPosition(camera: SIMD3<Float>, hit: SIMD3<Float>) -> SIMD3<Float> {
        let offset = hit - camera
        guard let direction = offset.normalized else { return hit }
        add(offset.length)
        return camera + direction * (mean ?? offset.length)
    }

    /// Forgets every sample (a new gesture starts from the next hit).
    public mutating func reset() {
        samples.removeAll()
    }
}
