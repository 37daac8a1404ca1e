import PlaneKitHitTesting
import PlaneKitStream
import PlaneKitMaps
import Synchronization

/// Something the network brought, for the stream's thread.
enum ShareInput: Sendable {
    /// Host: a peer said hello and was let in (its welcome is sent; its map is the stream's to send).
    case admitted(PeerEntry)
    /// A peer came in (joiner: as the host announced it).
    case joined(PeerEntry)
    /// A peer left, was dropped, or (joiner) the host went away; on the host, after the newest
    /// datagrams of it that it relayed (its `peerLeft` says so).
    case left(PeerEntry, reason: String, last: [LastDatagram])
    /// An object's state from peer `from` (the sender of the message).
    case object(SharedObject, from: UInt16)
    /// A pointer's place in the shared world (host: from the pointer; joiner: relayed by the host).
    case pointerPlaced(peer: UInt16, origin: SIMD3<Float>, forward: SIMD3<Float>)
    /// Joiner: one of the host's plane anchors, new or changed.
    case planeAnchor(WorldMap.Anchor)
    /// Joiner: the host removed this plane anchor.
    case planeAnchorRemoved(PlaneIdentifier)
    /// Host (or a standby listener): a peer of the space came back after a hand-over (``HostHandover``).
    case rejoined(PeerEntry)
    /// Joiner: the host's order of succession.
    case succession([Successor])
    /// A connection, message or datagram refused: from whom and why (also one line on stderr).
    case refused(who: String, reason: String)
}

/// Where the network's event loop leaves what arrived and the stream's thread takes it, between
/// records: one lock, held only to append or to swap the lists out, so neither side waits.
/// Poses are kept newest-only per sender: a stream that polls less often than poses arrive
/// shows each peer's latest.
final class ShareInbox: Sendable {
    private struct Contents {
        var inputs: [ShareInput] = []
        var poses: [UInt16: PoseDatagram] = [:]
        var attitudes: [UInt16: AttitudeDatagram] = [:]
        var counts = ShareCounts()
    }

    private let contents = Mutex(Contents())

    /// Adds `input`.
    func post(_ input: ShareInput) { contents.withLock { $0.inputs.append(input) } }

    /// Keeps `pose` as its sender's newest.
    func post(_ pose: PoseDatagram) {
        contents.withLock {
            $0.poses[pose.sender] = pose
            $0.counts.datagramsAccepted += 1
        }
    }

    /// Keeps `attitude` as its pointer's newest.
    func post(_ attitude: AttitudeDatagram) {
        contents.withLock {
            $0.attitudes[attitude.sender] = attitude
            $0.counts.datagramsAccepted += 1
        }
    }

    /// The newest attitude of each pointer since the last call, by sender.
    func takeAttitudes() -> [AttitudeDatagram] {
        contents.withLock { c in
            defer { c.attitudes.removeAll(keepingCapacity: true) }
            return c.attitudes.values.sorted { $0.sender < $1.sender }
        }
    }

    /// Changes the counts.
    func count(_ change: (inout ShareCounts) -> Void) { contents.withLock { change(&$0.counts) } }

    /// The counts so far.
    var counts: ShareCounts { contents.withLock { $0.counts } }

    /// Everything posted since the last call, oldest first, and the newest pose of each sender.
    func take() -> (inputs: [ShareInput], poses: [PoseDatagram]) {
        contents.withLock { c in
            defer {
                c.inputs.removeAll(keepingCapacity: true)
                c.poses.removeAll(keepingCapacity: true)
            }
            return (c.inputs, c.poses.values.sorted { $0.sender < $1.sender })
        }
    }

    /// Whether anything is waiting.
    var isEmpty: Bool { contents.withLock { $0.inputs.isEmpty && $0.poses.isEmpty && $0.attitudes.isEmpty } }
}
