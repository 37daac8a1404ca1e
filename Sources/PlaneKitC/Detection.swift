import CPlaneKit
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitCloudIO
import PlaneKitPlanes
import PlaneKitUnorganizedDetection

/// What a `planekit_detection` handle holds.
final class DetectionBox {
    let result: PlaneDetectionResult
    let milliseconds: Double

    init(result: PlaneDetectionResult, milliseconds: Double) {
        self.result = result
        self.milliseconds = milliseconds
    }
}

/// What a `planekit_cloud` handle holds.
final class CloudBox {
    let cloud: PointCloud

    init(cloud: PointCloud) { self.cloud = cloud }
}

/// The API version the library was built with (`PLANEKIT_API_VERSION`).
@_cdecl("planekit_version")
public func planekitVersion() -> Int32 { Int32(PLANEKIT_API_VERSION) }

/// Detection options with every default: auto sensor, the input's own up, no depth limit.
@_cdecl("planekit_detect_options_default")
public func planekitDetectOptionsDefault() -> planekit_detect_options {
    planekit_detect_options(sensor: Int32(PLANEKIT_SENSOR_AUTO.rawValue), up: (0, 0, 0), max_depth: 0)
}

// MARK: Reading

/// Reads a cloud or depth image file as `planekit analyze` does; see planekit.h.
@_cdecl("planekit_read")
public func planekitRead(_ path: UnsafePointer<CChar>?, _ options: UnsafePointer<planekit_read_options>?,
                         _ out: UnsafeMutablePointer<OpaquePointer?>?) -> planekit_status {
    reportingStatus {
        let out = try required(out, "out")
        out.pointee = nil
        let path = try text(path, "path")
        var readOptions = ReadOptions()
        if let given = options?.pointee {
            if given.has_intrinsics != 0 {
                // The reader takes the numbers and the image's own size.
                readOptions.intrinsics = try intrinsics(given.intrinsics, width: 1, height: 1)
            }
            if given.depth_scale != 0 {
                guard given.depth_scale > 0, given.depth_scale.isFinite else {
                    throw APIFailure.invalid("depth_scale must be 0 (the default) or positive and finite, got \(given.depth_scale)")
                }
                readOptions.depthScale = given.depth_scale
            }
            readOptions.maxDepth = try maximumDepth(given.max_depth)
            if given.unit_scale != 0 {
                guard given.unit_scale > 0, given.unit_scale.isFinite else {
                    throw APIFailure.invalid("unit_scale must be 0 (metres) or positive and finite, got \(given.unit_scale)")
                }
                readOptions.unitScale = given.unit_scale
            }
        }
        out.pointee = handle(CloudBox(cloud: try PointCloudReader.read(path: path, options: readOptions)))
    }
}

/// A read cloud's size, points, colours, camera and pose; the pointers point into the handle.
@_cdecl("planekit_cloud_get_info")
public func planekitCloudGetInfo(_ cloud: OpaquePointer?, _ out: UnsafeMutablePointer<planekit_cloud_info>?) -> planekit_status {
    reportingStatus {
        let cloud = try object(cloud, as: CloudBox.self, "cloud").cloud
        let out = try required(out, "out")
        var info = planekit_cloud_info()
        info.width = Int64(cloud.width)
        info.height = Int64(cloud.height)
        // The handle keeps the cloud, so its storage stays where it is while the handle lives.
        info.points = cloud.points.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: Float.self) }
        info.colors = cloud.colors?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: UInt8.self) }
        if let intrinsics = cloud.intrinsics {
            info.has_intrinsics = 1
            info.intrinsics = planekit_intrinsics(fx: intrinsics.fx, fy: intrinsics.fy, cx: intrinsics.cx, cy: intrinsics.cy)
        }
        fill(&info.pose, with: cloud.sensorPose.columnMajor)
        fill(&info.default_up, with: [cloud.defaultUp.x, cloud.defaultUp.y, cloud.defaultUp.z])
        out.pointee = info
    }
}

/// Frees a cloud handle; NULL is ignored.
@_cdecl("planekit_cloud_free")
public func planekitCloudFree(_ cloud: OpaquePointer?) { release(cloud, as: CloudBox.self) }

// MARK: Detecting

/// Runs a detection call: checks `out`, makes the cloud with `makeCloud` (given the call's
/// options, defaults for NULL), detects its planes as `planekit analyze` does (the options' up,
/// else the cloud's default) and stores the result, timed from the call's start, behind `out`.
private func detecting(_ options: UnsafePointer<planekit_detect_options>?, into out: UnsafeMutablePointer<OpaquePointer?>?,
                       cloud makeCloud: (planekit_detect_options) throws -> PointCloud) -> planekit_status {
    let start = ContinuousClock.now
    return reportingStatus {
        let out = try required(out, "out")
        out.pointee = nil
        let options = options?.pointee ?? planekitDetectOptionsDefault()
        // The cloud is released inside the timed span: a Swift caller pays for that too.
        let result = try {
            let cloud = try makeCloud(options)
            var finder = PlaneFinder(up: try direction(vector(options.up), "up") ?? cloud.defaultUp)
            finder.organized.configuration.sensor = try sensorProfile(options.sensor)
            return try finder.detect(in: cloud)
        }()
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
        out.pointee = handle(DetectionBox(result: result, milliseconds: milliseconds))
    }
}

/// Detects the planes of a read cloud exactly as `planekit analyze` does.
@_cdecl("planekit_detect_cloud")
public func planekitDetectCloud(_ cloud: OpaquePointer?, _ options: UnsafePointer<planekit_detect_options>?,
                                _ out: UnsafeMutablePointer<OpaquePointer?>?) -> planekit_status {
    detecting(options, into: out) { _ in try object(cloud, as: CloudBox.self, "cloud").cloud }
}

/// Detects the planes of caller-owned xyz points, organized (height > 1) or not.
@_cdecl("planekit_detect_points")
public func planekitDetectPoints(_ points: UnsafePointer<Float>?, _ width: Int64, _ height: Int64, _ pointStride: Int64,
                                 _ cameraIntrinsics: UnsafePointer<planekit_intrinsics>?,
                                 _ options: UnsafePointer<planekit_detect_options>?,
                                 _ out: UnsafeMutablePointer<OpaquePointer?>?) -> planekit_status {
    detecting(options, into: out) { _ in
        let points = try required(points, "points")
        let count = try gridCount(width: width, height: height)
        guard (3...64).contains(pointStride) else { throw APIFailure.invalid("point_stride must be 3 … 64 floats, got \(pointStride)") }
        let stride = Int(pointStride)
        let cameraModel = try cameraIntrinsics.map { pointer throws(APIFailure) in
            try intrinsics(pointer.pointee, width: Int(width), height: Int(height))
        }
        // The detector works on its own point layout (16-byte points): one pass from the caller's.
        let converted = ContiguousArray<SIMD3<Float>>(unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count {
                let p = points + i &* stride
                buffer[i] = SIMD3(p[0], p[1], p[2])
            }
            initialized = count
        }
        return height > 1
            ? try PointCloud(width: Int(width), height: Int(height), points: converted, intrinsics: cameraModel)
            : PointCloud(unorganized: converted)
    }
}

/// The organized cloud of a depth image given as metres (`depthAt(i)`, 0 for no reading).
private func depthCloud(width: Int64, height: Int64, intrinsics cameraIntrinsics: UnsafePointer<planekit_intrinsics>?,
                        depthAt: (Int) -> Float) throws -> PointCloud {
    let count = try gridCount(width: width, height: height)
    let camera = try intrinsics(try required(cameraIntrinsics, "intrinsics").pointee, width: Int(width), height: Int(height))
    let depths = ContiguousArray<Float>(unsafeUninitializedCapacity: count) { buffer, initialized in
        for i in 0..<count { buffer[i] = depthAt(i) }
        initialized = count
    }
    return try DepthImage(width: Int(width), height: Int(height), depths: depths).pointCloud(intrinsics: camera)
}

/// Detects the planes of a caller-owned 16-bit depth image.
@_cdecl("planekit_detect_depth_u16")
public func planekitDetectDepthU16(_ depth: UnsafePointer<UInt16>?, _ width: Int64, _ height: Int64,
                                   _ cameraIntrinsics: UnsafePointer<planekit_intrinsics>?, _ depthScale: Float,
                                   _ options: UnsafePointer<planekit_detect_options>?,
                                   _ out: UnsafeMutablePointer<OpaquePointer?>?) -> planekit_status {
    detecting(options, into: out) { options in
        let samples = try required(depth, "depth")
        guard depthScale > 0, depthScale.isFinite else {
            throw APIFailure.invalid("depth_scale must be positive and finite, got \(depthScale)")
        }
        let maxDepth = try maximumDepth(options.max_depth)
        return try depthCloud(width: width, height: height, intrinsics: cameraIntrinsics) { i in
            DepthReadingRules.metres(sample: samples[i], scale: depthScale, maxDepth: maxDepth) ?? 0
        }
    }
}

/// Detects the planes of a caller-owned float depth image in metres.
@_cdecl("planekit_detect_depth_f32")
public func planekitDetectDepthF32(_ depth: UnsafePointer<Float>?, _ width: Int64, _ height: Int64,
                                   _ cameraIntrinsics: UnsafePointer<planekit_intrinsics>?,
                                   _ options: UnsafePointer<planekit_detect_options>?,
                                   _ out: UnsafeMutablePointer<OpaquePointer?>?) -> planekit_status {
    detecting(options, into: out) { options in
        let depths = try required(depth, "depth")
        let maxDepth = try maximumDepth(options.max_depth)
        return try depthCloud(width: width, height: height, intrinsics: cameraIntrinsics) { i in
            DepthReadingRules.isReading(depth: depths[i], maxDepth: maxDepth) ? depths[i] : 0
        }
    }
}

// MARK: Results

/// Plane `index` of a detection handle, or a failure.
private func plane(_ detection: OpaquePointer?, _ index: Int64) throws(APIFailure) -> DetectedPlane {
    let planes = try object(detection, as: DetectionBox.self, "detection").result.planes
    guard index >= 0, index < planes.count else {
        throw APIFailure(status: Status.outOfRange, message: "plane index \(index) is not in 0..<\(planes.count)")
    }
    return planes[Int(index)]
}

/// How many planes a detection holds (0 for NULL).
@_cdecl("planekit_detection_plane_count")
public func planekitDetectionPlaneCount(_ detection: OpaquePointer?) -> Int64 {
    guard let box = try? object(detection, as: DetectionBox.self, "detection") else { return 0 }
    return Int64(box.result.planes.count)
}

/// A plane as the C struct.
private func described(_ plane: DetectedPlane) -> planekit_plane {
    var described = planekit_plane()
    described.label = Int32(plane.label)
    fill(&described.normal, with: [plane.normal.x, plane.normal.y, plane.normal.z])
    described.offset = plane.offset
    fill(&described.center, with: [plane.center.x, plane.center.y, plane.center.z])
    fill(&described.centroid, with: [plane.centroid.x, plane.centroid.y, plane.centroid.z])
    fill(&described.transform, with: plane.transform.columnMajor)
    fill(&described.extent, with: [plane.extent.width, plane.extent.length])
    described.area = plane.area
    described.rms_error = plane.rmsError
    described.point_count = Int64(plane.pointCount)
    described.alignment = alignmentCode(plane.alignment)
    described.classification = classificationCode(plane.classification)
    described.boundary_count = Int64(plane.boundary.vertices.count)
    return described
}

/// One plane of a detection as the C struct.
@_cdecl("planekit_detection_plane")
public func planekitDetectionPlane(_ detection: OpaquePointer?, _ index: Int64, _ out: UnsafeMutablePointer<planekit_plane>?) -> planekit_status {
    reportingStatus {
        let out = try required(out, "out")
        out.pointee = described(try plane(detection, index))
    }
}

/// Every plane of a detection at once, as many as fit in `capacity`.
@_cdecl("planekit_detection_planes")
public func planekitDetectionPlanes(_ detection: OpaquePointer?, _ planes: UnsafeMutablePointer<planekit_plane>?,
                                    _ capacity: Int64, _ count: UnsafeMutablePointer<Int64>?) -> planekit_status {
    reportingStatus {
        let found = try object(detection, as: DetectionBox.self, "detection").result.planes
        let count = try required(count, "count")
        guard capacity >= 0, capacity == 0 || planes != nil else { throw APIFailure.invalid("planes is NULL or capacity negative") }
        count.pointee = Int64(found.count)
        for (index, plane) in found.prefix(Int(capacity)).enumerated() { planes![index] = described(plane) }
    }
}

/// A plane's outline, pointing into the detection handle.
@_cdecl("planekit_detection_boundary")
public func planekitDetectionBoundary(_ detection: OpaquePointer?, _ index: Int64, _ xz: UnsafeMutablePointer<UnsafePointer<Float>?>?,
                                      _ count: UnsafeMutablePointer<Int64>?) -> planekit_status {
    reportingStatus {
        let xz = try required(xz, "xz"), count = try required(count, "count")
        // The handle keeps its planes, and with them each boundary's storage.
        let vertices = try plane(detection, index).boundary.vertices
        xz.pointee = vertices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress)?.assumingMemoryBound(to: Float.self) }
        count.pointee = Int64(vertices.count)
    }
}

/// The label image, pointing into the detection handle.
@_cdecl("planekit_detection_labels")
public func planekitDetectionLabels(_ detection: OpaquePointer?, _ labels: UnsafeMutablePointer<UnsafePointer<UInt16>?>?,
                                    _ width: UnsafeMutablePointer<Int64>?, _ height: UnsafeMutablePointer<Int64>?) -> planekit_status {
    reportingStatus {
        let result = try object(detection, as: DetectionBox.self, "detection").result
        let labels = try required(labels, "labels"), width = try required(width, "width"), height = try required(height, "height")
        labels.pointee = result.labels.withUnsafeBufferPointer { $0.baseAddress }
        width.pointee = Int64(result.width)
        height.pointee = Int64(result.height)
    }
}

/// The library's time in the call that made the detection (NaN for NULL).
@_cdecl("planekit_detection_milliseconds")
public func planekitDetectionMilliseconds(_ detection: OpaquePointer?) -> Double {
    (try? object(detection, as: DetectionBox.self, "detection"))?.milliseconds ?? .nan
}

/// Frees a detection handle; NULL is ignored.
@_cdecl("planekit_detection_free")
public func planekitDetectionFree(_ detection: OpaquePointer?) { release(detection, as: DetectionBox.self) }

// MARK: Names

/// The `planekit_alignment` code of an alignment.
func alignmentCode(_ alignment: PlaneAlignment) -> Int32 {
    switch alignment {
    case .horizontal: Int32(PLANEKIT_ALIGNMENT_HORIZONTAL.rawValue)
    case .vertical: Int32(PLANEKIT_ALIGNMENT_VERTICAL.rawValue)
    case .any: Int32(PLANEKIT_ALIGNMENT_ANY.rawValue)
    }
}

/// The `planekit_classification` code of a classification.
private func classificationCode(_ classification: PlaneClassification) -> Int32 {
    switch classification {
    case .floor: Int32(PLANEKIT_CLASS_FLOOR.rawValue)
    case .ceiling: Int32(PLANEKIT_CLASS_CEILING.rawValue)
    case .wall: Int32(PLANEKIT_CLASS_WALL.rawValue)
    case .table: Int32(PLANEKIT_CLASS_TABLE.rawValue)
    case .seat: Int32(PLANEKIT_CLASS_SEAT.rawValue)
    case .none: Int32(PLANEKIT_CLASS_NONE.rawValue)
    }
}

/// Static C strings, so the names outlive every call.
private let alignmentNames: [StaticString] = ["horizontal", "vertical", "any"]
private let classificationNames: [StaticString] = ["floor", "ceiling", "wall", "table", "seat", "none"]

/// The name at `code`, or "" when out of range.
private func name(_ code: Int32, in names: [StaticString]) -> UnsafePointer<CChar> {
    let chosen: StaticString = names.indices.contains(Int(code)) ? names[Int(code)] : ""
    return UnsafeRawPointer(chosen.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The name of a `planekit_alignment`, or "".
@_cdecl("planekit_alignment_name")
public func planekitAlignmentName(_ alignment: Int32) -> UnsafePointer<CChar> { name(alignment, in: alignmentNames) }

/// The name of a `planekit_classification`, or "".
@_cdecl("planekit_classification_name")
public func planekitClassificationName(_ classification: Int32) -> UnsafePointer<CChar> {
    name(classification, in: classificationNames)
}
