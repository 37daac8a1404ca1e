// libFuzzer target "world-map": its bytes as a world map file (WorldMapCoding.decode: header,
// zip-bomb bounds, inflate, checksum, body) and, since mutations rarely keep the checksum right,
// also as an inflated body (WorldMapCoding.decodeBody). A map that decodes is re-encoded and
// turned into a relocalizer (covered cells rebuilt), as loading it would.
@testable import PlaneKitMaps

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // A refusal is the expected answer to most inputs; only a crash, a leak, a hang or runaway
    // memory is a finding.
    for map in [try? WorldMapCoding.decode(bytes), try? WorldMapCoding.decodeBody(bytes)] {
        guard let map else { continue }
        _ = WorldMapCoding.encode(map)
        _ = Relocalizer(map: map)
    }
    return 0
}
