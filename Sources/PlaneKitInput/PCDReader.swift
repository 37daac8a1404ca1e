import PCLBridge
import PlaneKitGeometry

/// Reads PCD files (ascii, binary, binary_compressed): PlaneKit validates the header, then PCL's
/// `PCDReader` loads the data through the bridge into buffers this reader owns.
public enum PCDReader {
    /// The cloud in the PCD file at `path`, keeping the organized layout, NaN holes, `rgb`/`rgba`
    /// colours and the `VIEWPOINT` as ``PointCloud/sensorPose``.
    public static func read(path: String) throws(InputError) -> PointCloud {
        let header = try readHeader(path: path)
        let count = header.points
        guard count > 0 else {
            return try PointCloud(width: 0, height: 1, points: [], sensorPose: header.sensorPose)
        }
        let colorField = header.field(named: "rgb") ?? header.field(named: "rgba")
        let wantsColors = colorField.map { $0.size == 4 && $0.count == 1 } ?? false

        var status = pk_status()
        var hasColor: Int32 = 0
        var bridgeOK: Int32 = 0
        var colors = ContiguousArray<SIMD3<UInt8>>(repeating: .zero, count: wantsColors ? count : 0)
        // SIMD3<Float> is laid out as four floats (the fourth is padding), so the bridge writes
        // straight into the array with a stride of four floats.
        let points = ContiguousArray<SIMD3<Float>>(unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.initialize(repeating: SIMD3(repeating: .nan))
            initialized = count
            let floats = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: Float.self)
            let floatStride = MemoryLayout<SIMD3<Float>>.stride / MemoryLayout<Float>.stride
            colors.withUnsafeMutableBytes { colorBytes in
                let colorBase = wantsColors ? colorBytes.baseAddress?.assumingMemoryBound(to: UInt8.self) : nil
                bridgeOK = pk_pcd_read(path, count, floats, floatStride,
                                       colorBase, MemoryLayout<SIMD3<UInt8>>.stride, &hasColor, &status)
            }
        }
        guard bridgeOK == 1 else {
            let message = withUnsafeBytes(of: status.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw InputError(source: path, problem: message.isEmpty ? "PCL could not read the file" : message)
        }
        return try PointCloud(width: header.width, height: header.height, points: points,
                              colors: hasColor == 1 ? colors : nil, sensorPose: header.sensorPose)
    }

    /// The validated header of the PCD file at `path`. Headers are small: the first 64 KiB are
    /// read, and up to ``PCDHeader/maximumHeaderBytes`` only when those do not hold a valid one.
    public static func readHeader(path: String) throws(InputError) -> PCDHeader {
        let (prefix, fileSize) = try FileBytes.readPrefix(path, maximum: 1 << 16)
        do {
            return try PCDHeader.parse(prefix, fileSize: fileSize, source: path)
        } catch where prefix.count < fileSize {
            let (longer, size) = try FileBytes.readPrefix(path, maximum: PCDHeader.maximumHeaderBytes + 8)
            return try PCDHeader.parse(longer, fileSize: size, source: path)
        }
    }
}
