import { CrudPage } from '../../../kit/crud';
import { posts } from '../screens/posts';

/** System management → posts (menu `post`). */
export function PostsPage() {
  return <CrudPage definition={posts} />;
}
