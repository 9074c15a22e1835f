import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Result } from 'antd';
import { Link, useNavigate } from 'react-router-dom';

const TEXT: Record<401 | 404 | 500, { title: string; subTitle: string }> = {
  401: { title: '401', subTitle: 'You are not allowed to open this page.' },
  404: { title: '404', subTitle: 'The page you asked for does not exist.' },
  500: { title: '500', subTitle: 'Something went wrong on our side. Please try again.' },
};

/** True when the tab has a page to go back to (a link followed, a redirect from the page the user was on). */
function canGoBack(): boolean {
  return typeof window !== 'undefined' && window.history.length > 1;
}

/**
 * /errors/error-401, /errors/error-404 and /errors/error-500. Two ways out: back to where the user
 * was (the guard and unknown paths replace the page they were refused, so Back lands on the page
 * before it) and home. A signed-in user sees them inside the console frame (ConsoleApp), menu included.
 */
export function ErrorPage({ status }: { status: 401 | 404 | 500 }) {
  const navigate = useNavigate();
  const text = TEXT[status];
  return (
    <Result
      status={status === 401 ? '403' : status === 404 ? '404' : '500'}
      title={text.title}
      subTitle={text.subTitle}
      extra={
        <Flex justify="center" gap={8} wrap>
          {canGoBack() ? (
            <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(-1)}>
              Go back
            </Button>
          ) : null}
          <Link to="/home">
            <Button type="primary">Back home</Button>
          </Link>
        </Flex>
      }
    />
  );
}
