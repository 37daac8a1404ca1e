import PlaneKitHitTesting
import PlaneKitAnchors

/// A shared space a ``StreamRunner`` takes part in (`planekit stream --host/--join`): the runner
/// hands it each record's events, so it can send this peer's changes to the others, and lets
/// it apply what the others sent, between records, on the stream's own thread.
///
/// The network runs elsewhere; a link must only take what has already arrived and never wait
/// in ``exchange(after:processor:into:)``: whatever it does there is added to a frame's latency.
public protocol StreamPeerLink: AnyObject {
    /// After a record: `events` are what it produced (already written). Sends this peer's
    /// changes and appends the events of what peers sent since the last call to `incoming`.
    /// Returns `false` to stop reading the input as if it had ended (the peer was asked to leave).
    func exchange(after events: [StreamEvent], processor: inout StreamProcessor, into incoming: inout [StreamEvent]) -> Bool
    /// After the end of the input: waits a little for peers (at most a few tens of
    /// milliseconds), appends their events to `incoming`, and says whether to call again
    /// (`false` once the link is done: no peers left to serve, or its time is up).
    func linger(processor: inout StreamProcessor, into incoming: inout [StreamEvent]) -> Bool
}

extension StreamProcessor {
    /// Whether the session's events are in the world the loaded map defines: true with no map
    /// loaded, and once relocalized into the loaded map.
    public var isInMapWorld: Bool { !mapTracking.isRelocalizing }

    /// Puts an object another peer shared into the session (see `Session.applyShared(_:)`).
    public mutating func applyShared(_ anchor: ObjectAnchor) -> SessionEvent { session.applyShared(anchor) }

    /// Removes an object another peer removed; `nil` when the session does not have it.
    public mutating func removeShared(_ identifier: PlacedObjectIdentifier) -> SessionEvent? {
        session.removeShared(identifier)
    }

    /// Numbers this peer's next objects from `first` on (its own range in a shared space).
    public mutating func numberObjects(from first: UInt64) { session.numberObjects(from: first) }
}
