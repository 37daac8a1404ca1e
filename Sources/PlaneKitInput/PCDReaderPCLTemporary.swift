import PCLBridge
import PlaneKitGeometry

/// Reads PCD files (ascii, binary, binary_compressed): PlaneKit validates the header, then PCL's
/// `PCDReader` loads the data through the bridge into buffers this reader owns.
extension PCDReader {
    /// The cloud in the PCD file at `path`, keeping the organized layout, NaN holes, `rgb`/`rgba`
    /// colours and the `VIEWPOINT` as ``PointCloud/sensorPose``.
    static func readThroughPCL(path: String) throws(InputError) -> PointCloud {
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
}
