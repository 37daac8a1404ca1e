import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitStreamFormat

/// One-line messages on stderr, so stdout stays clean for tables, JSON and streams.
public enum Diagnostics {
    /// Prints `planekit: message` on stderr.
    public static func warn(_ message: String) {
        StandardError.write("planekit: \(message)\n")
    }
}

/// Unbuffered writes to stderr (file descriptor 2), in the order they are made.
package enum StandardError {
    /// Writes `text`. A stderr that cannot be written leaves nowhere to say so, so a failure is
    /// dropped.
    package static func write(_ text: String) {
        var sink = FileDescriptorSink(descriptor: 2, name: "stderr", pipeSize: nil)
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { try? sink.write(UnsafeRawBufferPointer($0)) }
    }
}
