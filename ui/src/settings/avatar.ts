import { AVATAR_QUALITY, squareCrop } from './logic';

/** Crops a picture to its centred square, scales it down and encodes it as JPEG at quality 0.8. */
export async function compressAvatar(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const crop = squareCrop(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = crop.out;
  canvas.height = crop.out;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no canvas');
  context.drawImage(bitmap, crop.sx, crop.sy, crop.side, crop.side, 0, 0, crop.out, crop.out);
  bitmap.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encode failed'))), 'image/jpeg', AVATAR_QUALITY),
  );
}
