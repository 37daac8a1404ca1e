/// What a peer is in a space, as its `hello` says: a device (a stream that tracks, places
/// objects and streams its camera), a pointer (a phone's attitude as a 3D mouse) or an observer
/// (a live view that only watches: it places nothing and sends no poses).
public enum PeerRole: UInt8, Sendable {
    /// A tracking stream (`planekit stream --join`).
    case device = 0
    /// An attitude pointer (`planekit pointer --join`).
    case pointer = 1
    /// A watcher (`planekit view --join`).
    case observer = 2
}
