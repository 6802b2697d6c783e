package dev.zklock.autoconfigure.zookeeper;

import java.util.List;

import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * {@link ACLProvider} that gives every node the client creates all permissions for the
 * identities the client authenticated with, and none for anybody else.
 */
final class CreatorAllAclProvider implements ACLProvider {

	@Override
	public List<ACL> getDefaultAcl() {
		return ZooDefs.Ids.CREATOR_ALL_ACL;
	}

	@Override
	public List<ACL> getAclForPath(String path) {
		return ZooDefs.Ids.CREATOR_ALL_ACL;
	}

}
