import PlaneKitStreamFormat
/// Something that watches a ``StreamRunner`` as it runs, such as a live view: it is handed every
/// event line as it is written, every record once its events are out, and the processor at the
/// end of the input.
///
/// The runner calls it on its own thread, between records, so an observer must return quickly
/// and never wait for anything slower than itself (a network client, a browser): whatever it
/// does is added to every frame's latency. The runner's output is the same with or without one.
public protocol StreamObserver: AnyObject {
    /// `event` was written as `line` (its NDJSON text, ending in `\n`); the bytes are only valid
    /// during the call.
    func streamRunner(didWrite event: StreamEvent, line: UnsafeRawBufferPointer)
    /// `record` was carried out and all its events written; `processor` holds the session after
    /// it (and, after a frame, the frame's cloud). Bad records are not reported here: their
    /// `error` event is.
    func streamRunner(didCarryOut record: StreamRecord, processor: StreamProcessor)
    /// The input ended (or a strict run stopped); `processor` holds the final session.
    func streamRunner(didEnd processor: StreamProcessor)
}
