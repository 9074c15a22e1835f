import { Button, Result } from 'antd';
import { Link } from 'react-router-dom';

const TEXT: Record<401 | 404 | 500, { title: string; subTitle: string }> = {
  401: { title: '401', subTitle: 'You are not allowed to open this page.' },
  404: { title: '404', subTitle: 'The page you asked for does not exist.' },
  500: { title: '500', subTitle: 'Something went wrong on our side. Please try again.' },
};

/** /errors/error-401, /errors/error-404 and /errors/error-500. */
export function ErrorPage({ status }: { status: 401 | 404 | 500 }) {
  const text = TEXT[status];
  return (
    <Result
      status={status === 401 ? '403' : status === 404 ? '404' : '500'}
      title={text.title}
      subTitle={text.subTitle}
      extra={
        <Link to="/home">
          <Button type="primary">Back home</Button>
        </Link>
      }
    />
  );
}
