import PlaneKitInput
import FoundationEssentials
import PlaneKitGeometry

/// The one entry point for reading a point cloud from a file of any supported format.
public enum PointCloudReader {
    /// The format of the file at `path`: its magic bytes when they are distinctive (a PNG
    /// named `.tiff` is still read as PNG), otherwise its extension; an error when neither
    /// identifies a supported format.
    public static func format(ofPath path: String) throws(InputError) -> PointCloudFormat {
        let (prefix, _) = try FileBytes.readPrefix(path, maximum: 16)
        if let format = PointCloudFormat(magic: prefix[...]) { return format }
        let ext = URL(fileURLWithPath: path).pathExtension
        if let format = PointCloudFormat(extension: ext) { return format }
        throw InputError(source: path, problem: "unknown format: extension '.\(ext)' and content not recognised (expected .pcd, .ply, .xyz/.txt, .pgm, .png or .tif/.tiff)")
    }

    /// The point cloud in the file at `path`. Depth images become organized clouds through the
    /// intrinsics in `options`, or in a sidecar file beside the image (see `CameraSidecar`);
    /// their samples become metres by `DepthReadingRules`. With `options.maxDepth`, readings
    /// farther than it are holes: a depth image's depth, a cloud point's z in the sensor frame
    /// (`PointCloud.dropReadings(beyond:)`).
    public static func read(path: String, options: ReadOptions = .init()) throws(InputError) -> PointCloud {
        try checkMaxDepth(options, path: path)
        let format = try format(ofPath: path)
        switch format {
        case .pcd, .ply, .xyz:
            var cloud = switch format {
            case .pcd: try PCDReader.read(path: path)
            case .ply: try PLYReader.read(path: path)
            default: try XYZReader.read(path: path)
            }
            if let scale = options.unitScale, scale != 1 {
                guard scale > 0, scale.isFinite else {
                    throw InputError(source: path, problem: "unit scale \(scale) is not a positive finite number of metres per unit")
                }
                cloud.scale(by: scale)
            }
            if let maxDepth = options.maxDepth { cloud.dropReadings(beyond: maxDepth) }
            if let given = options.intrinsics, cloud.isOrganized {
                // An organized cloud's camera, as for a depth image: the size is the cloud's.
                cloud.intrinsics = PinholeIntrinsics(fx: given.fx, fy: given.fy, cx: given.cx, cy: given.cy,
                                                     width: cloud.width, height: cloud.height)
            }
            return cloud
        case .pgm, .png, .tiff:
            let frame = try DepthImageReader.read(path: path, options: options)
            guard let intrinsics = frame.intrinsics else {
                let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                let name = stem.hasSuffix("_depth") ? String(stem.dropLast(6)) : stem
                throw InputError(source: path, problem: "a depth image needs camera intrinsics: pass them (fx fy cx cy) or put \(name).xml or \(name).json beside the image")
            }
            var cloud = frame.image.pointCloud(intrinsics: intrinsics)
            cloud.sensorPose = frame.pose ?? .identity
            return cloud
        }
    }

    /// An error unless `options.maxDepth` is absent or positive and finite.
    static func checkMaxDepth(_ options: ReadOptions, path: String) throws(InputError) {
        if let maxDepth = options.maxDepth, !DepthReadingRules.isValid(maxDepth: maxDepth) {
            throw InputError(source: path, problem: "maximum depth \(maxDepth) is not a positive finite number of metres")
        }
    }
}

/// Reads depth images (PGM, PNG, TIFF) into metres, with the camera intrinsics from the caller or
/// a sidecar file.
public enum DepthImageReader {
    /// The raw samples of the depth image at `path`.
    public static func readRaw(path: String) throws(InputError) -> GrayImage {
        let bytes = try FileBytes.read(path)
        let format = PointCloudFormat(magic: bytes.prefix(16))
            ?? PointCloudFormat(extension: URL(fileURLWithPath: path).pathExtension)
        switch format {
        case .pgm: return try PGMDecoder.decode(bytes, source: path)
        case .png: return try PNGDecoder.decode(bytes, source: path)
        case .tiff: return try TIFFDecoder.decode(bytes, source: path)
        default: throw InputError(source: path, problem: "not a depth image (expected PGM, PNG or TIFF)")
        }
    }

    /// The depth image at `path` in metres and its intrinsics (nil when neither `options` nor a
    /// sidecar gives them). The scale is `options.depthScale`, else the sidecar's, else
    /// ``ReadOptions/defaultDepthScale``; samples that are no reading (`DepthReadingRules`) and
    /// depths beyond `options.maxDepth` are 0.
    public static func read(path: String, options: ReadOptions = .init()) throws(InputError)
        -> (image: DepthImage, intrinsics: PinholeIntrinsics?, pose: Transform?) {
        try PointCloudReader.checkMaxDepth(options, path: path)
        let raw = try readRaw(path: path)
        let sidecar = try CameraSidecar.find(besideImage: path)
        let scale = options.depthScale ?? sidecar?.depthScale ?? ReadOptions.defaultDepthScale
        guard scale > 0, scale.isFinite else {
            throw InputError(source: sidecar?.path ?? path, problem: "depth scale \(scale) is not a positive finite number")
        }
        var intrinsics: PinholeIntrinsics?
        if let given = options.intrinsics {
            // Focal lengths and principal point come from the caller; the size is the image's.
            intrinsics = PinholeIntrinsics(fx: given.fx, fy: given.fy, cx: given.cx, cy: given.cy,
                                           width: raw.width, height: raw.height)
        } else if let sidecar {
            intrinsics = try sidecar.intrinsics(width: raw.width, height: raw.height)
        }
        return (DepthImage(raw, scale: scale, maxDepth: options.maxDepth), intrinsics, sidecar?.pose)
    }
}
