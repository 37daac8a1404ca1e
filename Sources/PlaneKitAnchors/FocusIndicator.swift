import PlaneKitGeometry
import PlaneKitHitTesting

/// The focus indicator's state (ARKit samples' focus square).
public enum FocusState: String, Sendable, Codable, Hashable, CaseIterable {
    /// Tracking has not started, or the centre ray hits nothing at all.
    case initializing
    /// The centre ray hits only an estimated plane.
    case estimated
    /// The centre ray hits an existing plane.
    case onPlane
    /// An object is being placed, so the indicator is hidden.
    case hidden
}

/// The centre-of-screen indicator: where the ray through the image centre meets the world.
///
/// Each frame, ``update(trackingStarted:placing:hit:)`` takes the smart hit of the centre ray
/// (an existing plane's geometry first, then an estimated plane):
/// - `initializing` before tracking has started, and whenever the ray hits nothing (as the focus square
///   of ARKit's samples falls back to its initializing look);
/// - `hidden` while an object is being placed (the session's definition: from a place or drag
///   command to the end of the next frame, or while ``Session/isPlacingObject`` is set);
/// - `onPlane` when the hit is on an existing plane, `estimated` when on an estimated one.
/// The position is the mean of the last ``smoothingCount`` (10) hit positions — the history is
/// cleared whenever there is no hit or the indicator is hidden, so it never drifts in from a
/// stale place — and the orientation is the hit's surface frame (+Y along the surface normal).
public struct FocusIndicator: Sendable, Hashable {
    /// How many recent positions are averaged: 10.
    public static let smoothingCount = 10

    /// The current state.
    public private(set) var state: FocusState = .initializing
    /// The smoothed pose on the surface, or `nil` while there is no hit.
    public private(set) var transform: Transform?
    /// The plane the indicator lies on, when `onPlane`.
    public private(set) var planeIdentifier: PlaneIdentifier?
    private var recent: [SIMD3<Float>] = []

    /// A new indicator, `initializing`.
    public init() {}

    /// The smoothed position, if any.
    public var position: SIMD3<Float>? { transform?.translation }

    /// Updates the indicator for one frame; returns the previous state when the state changed.
    @discardableResult
    public mutating func update(trackingStarted: Bool, placing: Bool, hit: HitTestResult?) -> FocusState? {
        let previous = state
        if !trackingStarted || placing || hit == nil {
            state = trackingStarted && placing ? .hidden : .initializing
            recent.removeAll()
            transform = nil
            planeIdentifier = nil
        } else if let hit {
            state = hit.planeIdentifier != nil ? .onPlane : .estimated
            planeIdentifier = hit.planeIdentifier
            if recent.count == FocusIndicator.smoothingCount { recent.removeFirst() }
            recent.append(hit.position)
            let mean = recent.reduce(SIMD3<Float>.zero, +) / Float(recent.count)
            transform = Transform(rotation: hit.worldTransform.rotation, translation: mean)
        }
        return state != previous ? previous : nil
    }
}
