//! The multipart part being filled, kept in one JS buffer reused for every part. A part
//! buffer in wasm memory, which never shrinks, kept 16 MiB of the isolate's memory for its
//! lifetime (the finished part and the next one's buffer), and a fresh JS array per part
//! left 8 MiB for the garbage collector each time (`cargo xtask bench worker`).

use tflock_core::edge::parts::{Piece, PART_SIZE};
use worker::js_sys::{Reflect, Uint8Array};
use worker::wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::worker_sys::{R2Bucket, R2MultipartUpload};
use worker::{Bucket, MultipartUpload, UploadedPart};

/// The part being filled, and the upload its parts go to.
pub(crate) struct PartBuffer {
    buf: Uint8Array,
    upload: R2MultipartUpload,
    uploaded: Vec<UploadedPart>,
}

impl PartBuffer {
    /// A buffer for the parts of `upload`, the multipart upload of `key` in `bucket`.
    pub async fn new(
        bucket: &Bucket,
        key: &str,
        upload: &MultipartUpload,
    ) -> Result<PartBuffer, String> {
        // worker-rs uploads a part only from a Vec it consumes (wasm memory); the binding's
        // own upload object takes the JS buffer as it is.
        let raw: &R2Bucket = bucket.as_ref().unchecked_ref();
        let resumed = raw
            .resume_multipart_upload(key.to_string(), upload.upload_id().await)
            .map_err(js_error)?;
        Ok(PartBuffer {
            buf: Uint8Array::new_with_length(PART_SIZE as u32),
            upload: resumed.unchecked_into(),
            uploaded: Vec::new(),
        })
    }

    /// Copies `piece` into the part; uploads the part when the piece completes it.
    pub async fn write(&mut self, piece: &Piece<'_>) -> Result<(), String> {
        let end = piece.at + piece.bytes.len();
        self.buf
            .subarray(piece.at as u32, end as u32)
            .copy_from(piece.bytes);
        if piece.completes {
            self.upload(end).await?;
        }
        Ok(())
    }

    /// Uploads the buffer's first `len` bytes as the next part.
    pub async fn upload(&mut self, len: usize) -> Result<(), String> {
        let number = u16::try_from(self.uploaded.len() + 1)
            .map_err(|_| "the archive has too many parts".to_string())?;
        let bytes = self.buf.subarray(0, len as u32);
        let sending = self
            .upload
            .upload_part(number, bytes.into())
            .map_err(js_error)?;
        let part = JsFuture::from(sending).await.map_err(js_error)?;
        let etag = Reflect::get(&part, &JsValue::from_str("etag"))
            .ok()
            .and_then(|e| e.as_string())
            .ok_or_else(|| format!("R2 answered part {number} without an etag"))?;
        self.uploaded.push(UploadedPart::new(number, etag));
        // Should the runtime ever take the buffer over (detach it), the next part gets a new one.
        if self.buf.byte_length() == 0 {
            self.buf = Uint8Array::new_with_length(PART_SIZE as u32);
        }
        Ok(())
    }

    /// The uploaded parts, which complete the upload.
    pub fn into_parts(self) -> Vec<UploadedPart> {
        self.uploaded
    }
}

fn js_error(e: JsValue) -> String {
    worker::Error::from(e).to_string()
}
