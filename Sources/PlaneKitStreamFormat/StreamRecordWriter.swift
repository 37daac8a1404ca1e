import PlaneKitGeometry
import PlaneKitInput

/// Writes frame-stream records (see `docs/stream-format.md`): a header line for each and, for
/// frames, the binary payload right after it. The text it writes is what
/// ``StreamRecordReader`` reads back, field for field.
public struct StreamRecordWriter<Sink: ByteSink> {
    /// The buffered output.
    public private(set) var output: OutputBuffer<Sink>
    private var line = JSONLineWriter(capacity: 512)

    /// A writer to `sink`.
    public init(sink: Sink) {
        output = OutputBuffer(sink: sink)
    }

    /// Writes `record`. A frame whose payload length is not `width × height × bytesPerPixel`
    /// is refused with an error (record number 0), since a reader could not stay in step after it,
    /// and so is one whose ``StreamFrame/maxDepth`` is not positive and finite, which every reader
    /// would refuse.
    public mutating func write(_ record: StreamRecord) throws(StreamError) {
        line.reset()
        line.beginObject()
        line.field("type", record.typeName)
        switch record {
        case let .frame(frame):
            guard frame.width > 0, frame.height > 0, frame.payload.count == frame.byteCount else {
                throw StreamError(recordNumber: 0, message: "frame payload has \(frame.payload.count) bytes, not the \(frame.width)×\(frame.height)×\(frame.encoding.bytesPerPixel) its size needs")
            }
            if let maxDepth = frame.maxDepth, !DepthReadingRules.isValid(maxDepth: maxDepth) {
                throw StreamError(recordNumber: 0, message: "frame maxDepth \(maxDepth) is not a positive finite number of metres")
            }
            line.field("t", frame.timestamp)
            line.field("width", frame.width)
            line.field("height", frame.height)
            line.field("encoding", frame.encoding.rawValue)
            if frame.encoding == .depth16 { line.field("depthScale", frame.depthScale) }
            if let maxDepth = frame.maxDepth { line.field("maxDepth", maxDepth) }
            if let k = frame.intrinsics {
                line.key("intrinsics")
                line.beginObject()
                line.field("fx", k.fx)
                line.field("fy", k.fy)
                line.field("cx", k.cx)
                line.field("cy", k.cy)
                line.endObject()
            }
            if frame.isPoseGiven { line.field("pose", frame.pose.columnMajor) }
            if let gravity = frame.gravity { line.field("gravity", gravity) }
            if let acceleration = frame.acceleration { line.field("acceleration", acceleration) }
            line.field("bytes", frame.byteCount)
        case let .tap(tap):
            line.field("x", tap.pixel.x)
            line.field("y", tap.pixel.y)
            line.field("name", tap.name)
            line.field("size", tap.size)
        case let .drag(drag):
            line.field("object", drag.object)
            line.field("x", drag.pixel.x)
            line.field("y", drag.pixel.y)
        case let .rotate(rotate):
            line.field("object", rotate.object)
            line.field("angle", rotate.angle)
        case let .remove(remove):
            line.field("object", remove.object)
        case let .raycast(raycast):
            switch raycast.source {
            case let .pixel(p):
                line.field("x", p.x)
                line.field("y", p.y)
            case let .ray(origin, direction):
                line.field("origin", origin)
                line.field("direction", direction)
            }
            line.field("target", raycast.target.rawValue)
            line.field("alignment", raycast.alignment.rawValue)
        case let .saveMap(file), let .loadMap(file):
            line.field("path", file.path)
        case let .attitude(attitude):
            let q = attitude.orientation.vector
            line.field("quaternion", [q.x, q.y, q.z, q.w])
            line.field("timestamp", attitude.timestamp)
        }
        line.endObject()
        try output.write(line)
        if case let .frame(frame) = record { try output.write(frame.payload) }
    }

    /// Writes out everything buffered.
    public mutating func flush() throws(StreamError) {
        try output.flush()
    }
}
