/**
 * A minimal H.264 encoder for the simulated `screenrecord`: Constrained Baseline, every frame one IDR slice of
 * I_PCM macroblocks (the YUV 4:2:0 samples themselves, no prediction nor transform), so any H.264 decoder (ffprobe,
 * Chromium's <video>) reads it and no native encoder is needed. Large per frame (384 bytes a macroblock): the
 * recorder shrinks the screen and writes a frame only when the screen changed.
 */

/** Bits written most significant first, with the exp-Golomb codes of the H.264 syntax. */
class BitWriter {
  readonly #bytes: number[] = [];
  #current = 0;
  #used = 0;

  bit(b: number): void {
    this.#current = (this.#current << 1) | (b & 1);
    if (++this.#used === 8) {
      this.#bytes.push(this.#current);
      [this.#current, this.#used] = [0, 0];
    }
  }

  bits(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.bit((value >>> i) & 1);
  }

  /** ue(v): unsigned exp-Golomb. */
  ue(value: number): void {
    const coded = value + 1;
    const length = 32 - Math.clz32(coded);
    this.bits(0, length - 1);
    this.bits(coded, length);
  }

  /** se(v): signed exp-Golomb. */
  se(value: number): void {
    this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }

  get aligned(): boolean {
    return this.#used === 0;
  }

  alignZero(): void {
    while (this.#used !== 0) this.bit(0);
  }

  /** Whole bytes (only when aligned). */
  bytes(data: Uint8Array): void {
    for (const b of data) this.#bytes.push(b);
  }

  /** rbsp_trailing_bits: a one, then zeros to the byte boundary. */
  trailing(): Uint8Array {
    this.bit(1);
    this.alignZero();
    return Uint8Array.from(this.#bytes);
  }
}

/** The NAL unit: its header byte, then the payload with emulation prevention (00 00 0x becomes 00 00 03 0x for x ≤ 3). */
function nal(header: number, rbsp: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + rbsp.length + Math.ceil(rbsp.length / 2) + 1);
  out[0] = header;
  let at = 1;
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) {
      out[at++] = 3;
      zeros = 0;
    }
    out[at++] = b;
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, at);
}

export const PROFILE_BASELINE = 66;
/** constraint_set0 and set1: Constrained Baseline. */
export const PROFILE_CONSTRAINTS = 0xc0;
export const LEVEL = 40;

/** A picture size in whole macroblocks, with the visible (cropped) size. */
export interface PictureSize {
  width: number;
  height: number;
}

const mbs = (n: number) => Math.ceil(n / 16);

export function sequenceParameterSet(size: PictureSize): Uint8Array {
  const w = new BitWriter();
  w.bits(PROFILE_BASELINE, 8);
  w.bits(PROFILE_CONSTRAINTS, 8);
  w.bits(LEVEL, 8);
  w.ue(0); // seq_parameter_set_id
  w.ue(0); // log2_max_frame_num_minus4
  w.ue(2); // pic_order_cnt_type: order from frame_num (no B frames)
  w.ue(1); // max_num_ref_frames
  w.bit(0); // gaps_in_frame_num_value_allowed_flag
  w.ue(mbs(size.width) - 1);
  w.ue(mbs(size.height) - 1);
  w.bit(1); // frame_mbs_only_flag
  w.bit(1); // direct_8x8_inference_flag
  const [cropRight, cropBottom] = [mbs(size.width) * 16 - size.width, mbs(size.height) * 16 - size.height];
  const cropped = cropRight > 0 || cropBottom > 0;
  w.bit(cropped ? 1 : 0);
  if (cropped) {
    // In 4:2:0 the offsets count pairs of samples.
    w.ue(0);
    w.ue(cropRight / 2);
    w.ue(0);
    w.ue(cropBottom / 2);
  }
  w.bit(0); // vui_parameters_present_flag
  return nal(0x67, w.trailing());
}

export function pictureParameterSet(): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.bit(0); // entropy_coding_mode_flag: CAVLC
  w.bit(0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.bit(0); // weighted_pred_flag
  w.bits(0, 2); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.bit(0); // deblocking_filter_control_present_flag (I_PCM has QP 0: nothing is filtered)
  w.bit(0); // constrained_intra_pred_flag
  w.bit(0); // redundant_pic_cnt_present_flag
  return nal(0x68, w.trailing());
}

/** One frame's planes, 4:2:0, each padded to whole macroblocks. */
export interface Yuv420 {
  /** Luma, `mbs(width) * 16` wide. */
  y: Uint8Array;
  cb: Uint8Array;
  cr: Uint8Array;
}

/** The IDR slice of one frame: every macroblock I_PCM. `idrPicId` must differ between consecutive frames. */
export function idrSlice(size: PictureSize, frame: Yuv420, idrPicId: number): Uint8Array {
  const [mbw, mbh] = [mbs(size.width), mbs(size.height)];
  const w = new BitWriter();
  w.ue(0); // first_mb_in_slice
  w.ue(7); // slice_type: I (all slices of the picture)
  w.ue(0); // pic_parameter_set_id
  w.bits(0, 4); // frame_num
  w.ue(idrPicId);
  w.bit(0); // no_output_of_prior_pics_flag
  w.bit(0); // long_term_reference_flag
  w.se(0); // slice_qp_delta
  const lumaStride = mbw * 16;
  const chromaStride = mbw * 8;
  const block = new Uint8Array(384);
  for (let my = 0; my < mbh; my++) {
    for (let mx = 0; mx < mbw; mx++) {
      w.ue(25); // mb_type I_PCM
      w.alignZero(); // pcm_alignment_zero_bit
      let at = 0;
      for (let y = 0; y < 16; y++) {
        block.set(frame.y.subarray((my * 16 + y) * lumaStride + mx * 16, (my * 16 + y) * lumaStride + mx * 16 + 16), (at += 16) - 16);
      }
      for (const plane of [frame.cb, frame.cr]) {
        for (let y = 0; y < 8; y++) {
          block.set(plane.subarray((my * 8 + y) * chromaStride + mx * 8, (my * 8 + y) * chromaStride + mx * 8 + 8), (at += 8) - 8);
        }
      }
      w.bytes(block);
    }
  }
  return nal(0x65, w.trailing());
}

/**
 * RGBA pixels (`sourceWidth` × `sourceHeight`) shrunk by `scale` (box average) into padded 4:2:0 planes of BT.601
 * limited range, the size the picture is coded at.
 */
export function rgbaToYuv420(rgba: Uint8Array, sourceWidth: number, sourceHeight: number, size: PictureSize, scale: number): Yuv420 {
  const [pw, ph] = [mbs(size.width) * 16, mbs(size.height) * 16];
  const rgb = new Float32Array(pw * ph * 3);
  for (let y = 0; y < ph; y++) {
    // Padding repeats the last visible row and column (it is cropped away).
    const vy = Math.min(y, size.height - 1);
    const y0 = vy * scale;
    const y1 = Math.min(y0 + scale, sourceHeight);
    for (let x = 0; x < pw; x++) {
      const x0 = Math.min(x, size.width - 1) * scale;
      const x1 = Math.min(x0 + scale, sourceWidth);
      let r = 0, g = 0, b = 0, n = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let i = (sy * sourceWidth + x0) * 4, end = (sy * sourceWidth + x1) * 4; i < end; i += 4) {
          r += rgba[i]!;
          g += rgba[i + 1]!;
          b += rgba[i + 2]!;
          n++;
        }
      }
      const o = (y * pw + x) * 3;
      if (n > 0) {
        rgb[o] = r / n;
        rgb[o + 1] = g / n;
        rgb[o + 2] = b / n;
      }
    }
  }
  const luma = new Uint8Array(pw * ph);
  const cw = pw / 2;
  const cb = new Uint8Array(cw * (ph / 2));
  const cr = new Uint8Array(cw * (ph / 2));
  for (let i = 0; i < pw * ph; i++) {
    luma[i] = clamp(16 + (65.481 * rgb[i * 3]! + 128.553 * rgb[i * 3 + 1]! + 24.966 * rgb[i * 3 + 2]!) / 255);
  }
  for (let cy = 0; cy < ph / 2; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      let r = 0, g = 0, b = 0;
      for (
        const o of [
          (cy * 2 * pw + cx * 2) * 3,
          (cy * 2 * pw + cx * 2 + 1) * 3,
          ((cy * 2 + 1) * pw + cx * 2) * 3,
          ((cy * 2 + 1) * pw + cx * 2 + 1) * 3,
        ]
      ) {
        r += rgb[o]! / 4;
        g += rgb[o + 1]! / 4;
        b += rgb[o + 2]! / 4;
      }
      cb[cy * cw + cx] = clamp(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255);
      cr[cy * cw + cx] = clamp(128 + (112 * r - 93.786 * g - 18.214 * b) / 255);
    }
  }
  return { y: luma, cb, cr };
}

/** A sample value, 1 to 255 (early H.264 editions forbid a PCM sample of 0). */
function clamp(v: number): number {
  return Math.max(1, Math.min(255, Math.round(v)));
}
