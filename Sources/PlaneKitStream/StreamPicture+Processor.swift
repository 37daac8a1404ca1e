import PlaneKitPictures

extension StreamPicture {
    /// The picture of `processor`'s latest frame, or `nil` before the first.
    public init?(processor: StreamProcessor) {
        self.init(session: processor.session, cloud: processor.latestCloud)
    }
}
