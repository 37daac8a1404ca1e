// libFuzzer target: a byte stream into `planekit stream`'s StreamRunner (StreamRecordReader,
// then StreamProcessor with a tracking session), events written to memory. The input is read
// in pieces of at most 4093 bytes, so header lines and payloads also straddle reads.
import PlaneKitStream
import PlaneKitStreamFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var runner = StreamRunner(source: MemoryByteSource(bytes, maximumPiece: 4093), sink: MemoryByteSink(),
                              warn: { _ in })
    // Bad records become error events and the run goes on; only the output can stop it.
    try? runner.run()
    return 0
}
