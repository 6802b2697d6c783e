CREATE TABLE IF NOT EXISTS order_sequence (
	order_day DATE PRIMARY KEY,
	last_value BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS orders (
	order_number VARCHAR(15) PRIMARY KEY,
	created_at TIMESTAMP(9) WITH TIME ZONE NOT NULL
);

CREATE TABLE IF NOT EXISTS order_summary (
	order_day DATE PRIMARY KEY,
	order_count BIGINT NOT NULL,
	fencing_token BIGINT NOT NULL
);
