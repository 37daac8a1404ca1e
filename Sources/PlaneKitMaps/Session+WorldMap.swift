import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors

extension Session {
    /// The session's world as a map: its confirmed anchors, its objects, and the keyframes and
    /// points `sampler` took from its frames.
    public func worldMap(points sampler: MapPointSampler) -> WorldMap {
        let objects = objectStates.map { state -> WorldMap.Object in
            let a = state.anchor
            // A snap in progress is saved where it will land.
            var transform = a.transform
            if let snap = a.snap { transform.translation = snap.target }
            return WorldMap.Object(identifier: a.identifier, name: a.name, size: a.size, transform: transform,
                                   planeIdentifier: a.snap?.plane ?? a.planeIdentifier, alignment: a.alignment)
        }
        return WorldMap(anchors: tracker.confirmed.map(\.saved), objects: objects, keyframes: sampler.keyframes,
                        points: sampler.points.points, normals: sampler.points.normals, mappingStatus: mappingStatus,
                        nextPlaneNumber: tracker.nextIdentifier, nextObjectNumber: nextObjectNumber)
    }

    /// Makes room for `map`'s identifiers: new anchors and objects of this session are numbered
    /// above the map's, so that until relocalization none takes a saved anchor's name.
    public mutating func reserveIdentifiers(of map: WorldMap) {
        tracker.nextIdentifier = max(tracker.nextIdentifier, map.nextPlaneNumber)
        nextObjectNumber = max(nextObjectNumber, map.nextObjectNumber)
    }

    /// Moves the session into `map`'s world: everything it holds is moved by `mapFromSession`,
    /// the map's anchors and objects come in, and each session anchor in `matches` (session
    /// identifier → map identifier) is merged into its map anchor. Returns the events that
    /// tell a client so, in order: `planeRemoved` (merged into the map anchor) for matched
    /// session anchors, `planeAdded` for every map anchor, `planeUpdated` for the other session
    /// anchors (now in map coordinates), `objectAdded` for the map's objects and `objectMoved`
    /// for the session's own. A session anchor or object whose identifier the map also uses
    /// (a map loaded mid-stream) is renamed: `planeRemoved` into its new name, then `planeAdded`.
    ///
    /// Later frames must come with map-world poses (the caller applies `mapFromSession`).
    public mutating func relocalize(into map: WorldMap, mapFromSession: Transform,
                                    matches: [PlaneIdentifier: PlaneIdentifier]) -> [SessionEvent] {
        let t = mapFromSession
        var events: [SessionEvent] = []
        func emit(_ kind: SessionEvent.Kind, mergedInto: PlaneIdentifier? = nil) {
            events.append(SessionEvent(frame: max(frameIndex, 0), timestamp: timestamp, kind: kind, mergedInto: mergedInto))
        }
        reserveIdentifiers(of: map)
        let frame = max(frameIndex, 0)
        var restored = map.anchors.map { PlaneAnchor(restoring: $0, frame: frame, travelled: tracker.travelled) }
        let mapIdentifiers = Set(map.anchors.map(\.identifier))
        var kept: [PlaneAnchor] = [], candidates: [PlaneAnchor] = []
        var renamed: [(old: PlaneAnchor, new: PlaneAnchor)] = []
        for anchor in tracker.tracked {
            var moved = PlaneAnchor(anchor, transformedBy: t)
            if !anchor.isConfirmed {
                candidates.append(moved)
            } else if let target = matches[anchor.identifier], let k = restored.firstIndex(where: { $0.identifier == target }) {
                restored[k].absorb(moved)
                emit(.planeRemoved(moved), mergedInto: target)
            } else if mapIdentifiers.contains(anchor.identifier) {
                let old = moved
                moved.identifier = PlaneIdentifier(tracker.nextIdentifier)
                tracker.nextIdentifier += 1
                renamed.append((old, moved))
                kept.append(moved)
            } else {
                kept.append(moved)
            }
        }
        for k in restored.indices {
            restored[k].refresh(up: configuration.up, alignmentTolerance: configuration.tracking.alignmentTolerance)
            restored[k].reported = restored[k].plane
            emit(.planeAdded(restored[k]))
        }
        for (old, new) in renamed {
            emit(.planeRemoved(old), mergedInto: new.identifier)
            emit(.planeAdded(new))
        }
        for anchor in kept where !renamed.contains(where: { $0.new.identifier == anchor.identifier }) {
            emit(.planeUpdated(anchor))
        }
        let confirmed = (restored + kept).sorted { $0.identifier < $1.identifier }
        tracker.tracked = confirmed + candidates.sorted { $0.identifier < $1.identifier }
        tracker.confirmedCount = confirmed.count
        tracker.lastCameraPosition = tracker.lastCameraPosition.map(t.apply(toPoint:))

        // Objects: the session's move with the world (renamed when the map uses the name), the map's come back.
        let mapObjects = Set(map.objects.map(\.identifier))
        for i in objectStates.indices {
            var a = objectStates[i].anchor
            a.transform = t * a.transform
            if var snap = a.snap {
                snap.start = t.apply(toPoint: snap.start)
                snap.target = t.apply(toPoint: snap.target)
                a.snap = snap
            }
            a.planeIdentifier = a.planeIdentifier.map { matches[$0] ?? $0 }
            if mapObjects.contains(a.identifier) {
                emit(.objectRemoved(a))
                a.identifier = takeObjectIdentifier(avoiding: mapObjects)
                a.anchorNumber = takeAnchorNumber()
                objectStates[i].anchor = a
                emit(.objectAdded(a))
            } else {
                a.anchorNumber = takeAnchorNumber()
                objectStates[i].anchor = a
                emit(.objectMoved(a))
            }
        }
        for saved in map.objects {
            let anchor = ObjectAnchor(identifier: saved.identifier, anchorNumber: takeAnchorNumber(), name: saved.name,
                                      size: saved.size, transform: saved.transform, planeIdentifier: saved.planeIdentifier,
                                      alignment: saved.alignment)
            objectStates.append(ObjectState(anchor: anchor, smoothing: true))
            emit(.objectAdded(anchor))
        }
        objectStates.sort { $0.anchor.identifier < $1.anchor.identifier }

        camera = camera.map { PinholeCamera(intrinsics: $0.intrinsics, pose: t * $0.pose) }
        mapping.firstForward = mapping.firstForward.map(t.apply(toDirection:))
        mapping.lastPosition = mapping.lastPosition.map(t.apply(toPoint:))
        // The indicator starts afresh from the next frame; the latest points are in the old world.
        focusIndicator = FocusIndicator()
        measuredPoints = nil
        cachedTester = nil
        pointTester = nil
        return events
    }
}
