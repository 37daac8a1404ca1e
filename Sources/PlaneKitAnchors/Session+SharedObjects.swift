import PlaneKitHitTesting

extension Session {
    /// Puts an object another device shared into this session, as that device describes it:
    /// added when the session has no object with its identifier, else replacing that object's
    /// anchor (a new ``ObjectAnchor/anchorNumber``, any snap dropped: the sharer's pose wins).
    /// Takes no object number, so this session's own numbering (``numberObjects(from:)``) is
    /// untouched. Returns `objectAdded` or `objectMoved`.
    public mutating func applyShared(_ shared: ObjectAnchor) -> SessionEvent {
        var anchor = shared
        anchor.snap = nil
        anchor.anchorNumber = takeAnchorNumber()
        if let i = objectStates.firstIndex(where: { $0.anchor.identifier == anchor.identifier }) {
            objectStates[i].anchor = anchor
            return SessionEvent(frame: max(frameIndex, 0), timestamp: timestamp, kind: .objectMoved(anchor))
        }
        let at = objectStates.firstIndex { $0.anchor.identifier > anchor.identifier } ?? objectStates.endIndex
        objectStates.insert(ObjectState(anchor: anchor, smoothing: true), at: at)
        return SessionEvent(frame: max(frameIndex, 0), timestamp: timestamp, kind: .objectAdded(anchor))
    }

    /// Removes an object another device removed; `nil` when this session does not have it.
    public mutating func removeShared(_ identifier: PlacedObjectIdentifier) -> SessionEvent? {
        guard let i = objectStates.firstIndex(where: { $0.anchor.identifier == identifier }) else { return nil }
        let removed = objectStates.remove(at: i)
        return SessionEvent(frame: max(frameIndex, 0), timestamp: timestamp, kind: .objectRemoved(removed.anchor))
    }

    /// Numbers this session's next placed objects from `first` on (never below a number it has
    /// already used), so that devices sharing one space each place objects in their own range.
    public mutating func numberObjects(from first: UInt64) {
        nextObjectNumber = max(nextObjectNumber, first)
    }

    /// The number the next placed object gets (or the first above it that no object has).
    public var nextPlacedObjectNumber: UInt64 { nextObjectNumber }

    /// The next object identifier that no object of the session (nor any in `taken`) has: a
    /// loaded map or a shared space may hold objects numbered above ``nextPlacedObjectNumber``.
    package mutating func takeObjectIdentifier(avoiding taken: Set<PlacedObjectIdentifier> = []) -> PlacedObjectIdentifier {
        func inUse(_ number: UInt64) -> Bool {
            let id = PlacedObjectIdentifier(number)
            return taken.contains(id) || objectStates.contains { $0.anchor.identifier == id }
        }
        while inUse(nextObjectNumber) { nextObjectNumber += 1 }
        defer { nextObjectNumber += 1 }
        return PlacedObjectIdentifier(nextObjectNumber)
    }
}
