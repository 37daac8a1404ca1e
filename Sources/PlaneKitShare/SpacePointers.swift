import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitMaps

/// A stream peer's share of the pointer seed and of the host's live plane anchors
/// (docs/protocol.md, "Pointers" and "Plane anchors"), kept on the stream's thread.
///
/// - Pointers: where each `planekit pointer` peer stands (its placement, which the host passes on
///   to every device peer), and its ray for each attitude cast into this peer's planes.
/// - A host's anchors: the host queues each change of its plane anchors and sends it at most
///   ``anchorInterval`` after the anchor's previous one (a removal at once); a joiner keeps the
///   host's anchors as they come and casts pointers into them too.
struct SpacePointers {
    /// The shortest time between two messages about one anchor: a plane refined every frame
    /// at 30 Hz is sent about 4 times a second, its latest state each time.
    static let anchorInterval: Duration = .milliseconds(250)

    private var caster = PointerCaster()
    /// Every placed pointer's placement (the host sends them to devices that come later).
    private var placements: [UInt16: (origin: SIMD3<Float>, forward: SIMD3<Float>)] = [:]
    /// Host: anchor changes not sent yet, their latest state (coded as a map's anchor only when
    /// sent: a plane refined every frame is sent about 4 times a second).
    private var pending: [PlaneIdentifier: PlaneAnchor] = [:]
    /// Host: anchors removed since the last send.
    private var removed: [PlaneIdentifier] = []
    /// Host: when each anchor was last sent.
    private var lastSent: [PlaneIdentifier: ContinuousClock.Instant] = [:]
    /// Joiner: the host's anchors as it last shared them.
    private var hostAnchors: [PlaneIdentifier: WorldMap.Anchor] = [:]
    /// Joiner: the hit tester of ``hostAnchors``, built when first needed after a change.
    private var hostTester: HitTester?

    // MARK: Pointers

    /// Places pointer `entry`; `false` when its forward direction gives no heading.
    mutating func place(_ entry: PeerEntry, origin: SIMD3<Float>, forward: SIMD3<Float>) -> Bool {
        placements[entry.id] = (origin, forward)
        return caster.place(entry.name, origin: origin, forward: forward)
    }

    /// Forgets a peer that left (a pointer's placement and calibration).
    mutating func forget(_ entry: PeerEntry) {
        placements[entry.id] = nil
        caster.forget(entry.name)
    }

    /// Host: tells device peer `id`, just admitted, where the pointers already in the space stand.
    func sendPlacements(to id: UInt16, _ host: ShareHost) {
        for (peer, p) in placements.sorted(by: { $0.key < $1.key }) {
            host.send(.pointerPlacement(peer: peer, origin: p.origin, forward: p.forward), to: id)
        }
    }

    /// The ray of pointer `name` for `attitude`, cast into the session's planes (an observer has
    /// no session) and the host's shared ones (target `existingPlaneGeometry`, any alignment);
    /// `nil` while it is not placed.
    mutating func cast(_ attitude: AttitudeDatagram, name: String, session: Session?) -> PointerCaster.Cast? {
        if hostTester == nil, !hostAnchors.isEmpty {
            hostTester = HitTester(planes: hostAnchors.values.sorted { $0.identifier < $1.identifier }
                .map { HitTestPlane(identifier: $0.identifier, plane: $0.plane) })
        }
        let shared = hostTester
        return caster.cast(name, attitude: attitude.orientation) { ray in
            PointerCaster.merged(session?.raycast(ray, targets: .existingPlaneGeometry) ?? [],
                                 shared?.hitTest(ray, targets: .existingPlaneGeometry) ?? [])
        }
    }

    // MARK: The host's anchors

    /// Host: a change of the session's; plane anchor changes are queued for the joiners.
    mutating func hostChanged(_ change: SessionEvent) {
        switch change.kind {
        case .planeAdded(let anchor), .planeUpdated(let anchor):
            pending[anchor.identifier] = anchor
        case .planeRemoved(let anchor):
            pending[anchor.identifier] = nil
            lastSent[anchor.identifier] = nil
            removed.append(anchor.identifier)
        default:
            break
        }
    }

    /// Host: sends the removals and every queued change whose anchor was not sent within
    /// ``anchorInterval``. With no peer in the space the queue is dropped: a peer that comes
    /// gets the anchors in the map.
    mutating func sendAnchors(_ host: ShareHost) {
        guard !pending.isEmpty || !removed.isEmpty else { return }
        guard host.peerCount > 0 else {
            pending.removeAll()
            removed.removeAll()
            return
        }
        for identifier in removed { host.broadcast(.planeAnchorRemoved(identifier)) }
        removed.removeAll()
        let now = ContinuousClock.now
        for (identifier, anchor) in pending.sorted(by: { $0.key < $1.key }) {
            if let last = lastSent[identifier], now - last < Self.anchorInterval { continue }
            host.broadcast(.planeAnchor(anchor.saved))
            lastSent[identifier] = now
            pending[identifier] = nil
        }
    }

    /// Joiner: keeps one of the host's anchors; whether it is new or an update.
    mutating func hostAnchor(_ anchor: WorldMap.Anchor) -> PeerEvent.AnchorChange {
        let known = hostAnchors.updateValue(anchor, forKey: anchor.identifier) != nil
        hostTester = nil
        return known ? .updated : .added
    }

    /// Observer: starts from the anchors of the map it joined with, as the host had them then.
    mutating func startHostAnchors(from map: WorldMap) {
        for anchor in map.anchors { hostAnchors[anchor.identifier] = anchor }
        hostTester = nil
    }

    /// Joiner: forgets one of the host's anchors; its last state, or `nil` when it was not known.
    mutating func hostAnchorRemoved(_ identifier: PlaneIdentifier) -> WorldMap.Anchor? {
        hostTester = nil
        return hostAnchors.removeValue(forKey: identifier)
    }
}
