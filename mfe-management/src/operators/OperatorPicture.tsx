import { useEffect, useState } from 'react';
import { api } from 'shared-auth';
import { initials, Portrait } from 'shared-ui';

export interface OperatorPictureProps {
  operatorId: number;
  name: string;
  /** The picture's version from the API; null shows the initials. */
  version: string | null;
  size?: number;
}

/**
 * The operator's picture, or its initials. The picture needs the session's bearer token, which an
 * `<img src>` cannot send, so it is fetched through the API client and shown from an object URL
 * (versioned, so the browser cache answers repeat views).
 */
export function OperatorPicture({ operatorId, name, version, size = 64 }: OperatorPictureProps) {
  const [picture, setPicture] = useState<{ key: string; url: string } | null>(null);
  const key = version === null ? null : `${operatorId}@${version}`;

  useEffect(() => {
    if (key === null || version === null) return;
    let url: string | null = null;
    let current = true;
    void api
      .get<Blob>('Operators/GetImage', { params: { operatorId, v: version }, responseType: 'blob', skipLoading: true, skipErrorHandling: true })
      .then(({ data }) => {
        if (!current) return;
        url = URL.createObjectURL(data);
        setPicture({ key, url });
      })
      .catch(() => {
        /* no picture after all: the initials stay */
      });
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [key, operatorId, version]);

  const src = picture && picture.key === key ? picture.url : undefined;
  return <Portrait src={src} initials={initials(name)} alt={`${name} picture`} size={size} />;
}
